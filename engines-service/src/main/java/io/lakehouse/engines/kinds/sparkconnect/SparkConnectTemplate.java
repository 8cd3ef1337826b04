package io.lakehouse.engines.kinds.sparkconnect;

import io.lakehouse.common.templates.Template;
import io.lakehouse.common.templates.TemplateField;
import java.util.List;

/** The {@code spark-connect} template, as the seed describes it. */
final class SparkConnectTemplate {

    static final Template TEMPLATE = new Template(
            SparkConnectKind.KIND,
            "Spark Connect",
            "Processing",
            "An Apache Spark server in local mode (executors inside the pod) exposed through the Spark Connect"
                    + " protocol: notebooks and PySpark clients of the namespace share one Spark installation,"
                    + " already configured on the chosen Apache Iceberg catalog (default Spark catalog lakehouse)."
                    + " No public route: gRPC, reached from the namespace only.",
            List.of(
                    TemplateField.of("name", "Name", "General", "name").mandatory().fixedAfterCreation()
                            .help("Kubernetes name: lowercase letters, digits and '-'"),
                    TemplateField.of("spec.catalog", "Apache Iceberg (Polaris) catalog", "General",
                                    "instance:iceberg-catalog")
                            .mandatory().fixedAfterCreation()
                            .help("An Apache Iceberg instance of this namespace; Spark's default catalog lakehouse"),
                    TemplateField.of("spec.warehouse", "Iceberg catalog (warehouse)", "General", "string")
                            .fixedAfterCreation().defaultsTo(SparkConnectKind.DEFAULT_WAREHOUSE)
                            .help("Catalog name on the Polaris side. Defaults to the Apache Iceberg instance's"
                                    + " catalog name"),
                    TemplateField.of("spec.requireToken", "Require a connection token", "General", "boolean")
                            .defaultsTo(true)
                            .help("On by default: a shared token, kept in the <name>-platform secret; clients then connect over"
                                    + " TLS (CA in the <name>-tls secret)"),
                    TemplateField.of("spec.storage.bucket", "Warehouse S3 bucket", "Storage", "bucket")
                            .fixedAfterCreation()
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
                    TemplateField.of("spec.cores", "Spark cores", "Resources", "integer")
                            .defaultsTo(SparkConnectKind.DEFAULT_CORES)
                            .range(String.valueOf(SparkConnectKind.MIN_CORES),
                                    String.valueOf(SparkConnectKind.MAX_CORES))
                            .help("local[N]: Spark's task threads; also the pod's CPU limit"),
                    TemplateField.of("spec.driverMemory", "Spark (driver) memory", "Resources", "quantity")
                            .defaultsTo(SparkConnectKind.DEFAULT_DRIVER_MEMORY)
                            .range(SparkConnectKind.MIN_DRIVER_MEMORY, SparkConnectKind.MAX_DRIVER_MEMORY),
                    TemplateField.of("spec.podMemory", "Pod memory limit", "Resources", "quantity")
                            .defaultsTo(SparkConnectKind.DEFAULT_POD_MEMORY)
                            .range(SparkConnectKind.MIN_POD_MEMORY, SparkConnectKind.MAX_POD_MEMORY)
                            .help("At least Spark memory + 1Gi (defaults to it): Spark needs about 1 Gi of"
                                    + " headroom besides its heap")));

    private SparkConnectTemplate() {}
}
