package io.lakehouse.engines.kinds.trino;

import io.lakehouse.common.templates.Template;
import io.lakehouse.common.templates.TemplateField;
import java.util.List;

/** The {@code trino} template, as the seed describes it. */
final class TrinoTemplate {

    static final Template TEMPLATE = new Template(
            TrinoKind.KIND,
            "Trino",
            "Processing",
            "A Trino coordinator and workers with a lakehouse catalog pre-wired to the chosen Apache Iceberg"
                    + " instance. Sign-in with your platform account (web UI at /ui/ and SQL clients with"
                    + " --external-authentication); who may open it is granted from Access.",
            List.of(
                    TemplateField.of("name", "Name", "General", "name").mandatory().fixedAfterCreation()
                            .help("Kubernetes name: lowercase letters, digits and '-'"),
                    TemplateField.of("spec.catalog", "Apache Iceberg (Polaris) catalog", "General", "instance:iceberg-catalog")
                            .mandatory().fixedAfterCreation().help("An Apache Iceberg instance of this namespace"),
                    TemplateField.of("spec.warehouse", "Iceberg catalog (warehouse)", "General", "string")
                            .fixedAfterCreation().defaultsTo(TrinoKind.DEFAULT_WAREHOUSE)
                            .help("Catalog name on the Polaris side (Trino's catalog is always 'lakehouse'). Defaults to"
                                    + " the Apache Iceberg instance's catalog name"),
                    TemplateField.of("spec.storage.bucket", "Warehouse S3 bucket", "Storage", "bucket").fixedAfterCreation()
                            .help("The same bucket as the catalog's (its bucket by default): select it to fill in"
                                    + " endpoint, region and keys"),
                    TemplateField.of("spec.storage.endpoint", "S3 endpoint", "Storage", "url").fixedAfterCreation(),
                    TemplateField.of("spec.storage.region", "S3 region", "Storage", "string").fixedAfterCreation(),
                    TemplateField.of("spec.storage.pathStyleAccess", "Path-style access", "Storage", "boolean")
                            .fixedAfterCreation().defaultsTo(true),
                    TemplateField.of("spec.storage.credentialsSecret", "Credentials Secret", "Storage", "secretRef")
                            .fixedAfterCreation(),
                    TemplateField.of("spec.storage.accessKeyId", "Access key id", "Storage", "string")
                            .fixedAfterCreation().writeOnly(),
                    TemplateField.of("spec.storage.secretAccessKey", "Secret access key", "Storage", "string")
                            .fixedAfterCreation().writeOnly(),
                    TemplateField.of("spec.workers", "Number of workers", "Resources", "integer")
                            .defaultsTo(TrinoKind.DEFAULT_WORKERS)
                            .range(String.valueOf(TrinoKind.MIN_WORKERS), String.valueOf(TrinoKind.MAX_WORKERS)),
                    TemplateField.of("spec.coordinatorMemory", "Coordinator memory", "Resources", "quantity")
                            .defaultsTo(TrinoKind.DEFAULT_MEMORY).range(TrinoKind.MIN_MEMORY, TrinoKind.MAX_MEMORY)
                            .help("Pod memory must stay at least 3Gi (JVM heap fixed at 1.4 GB, plus off-heap)"),
                    TemplateField.of("spec.workerMemory", "Memory per worker", "Resources", "quantity")
                            .defaultsTo(TrinoKind.DEFAULT_MEMORY).range(TrinoKind.MIN_MEMORY, TrinoKind.MAX_MEMORY),
                    TemplateField.of("spec.cpu", "CPU per pod", "Resources", "quantity")
                            .defaultsTo(TrinoKind.DEFAULT_CPU).range(TrinoKind.MIN_CPU, TrinoKind.MAX_CPU)));

    private TrinoTemplate() {}
}
