package io.lakehouse.catalog.domain;

import io.lakehouse.common.templates.Template;
import io.lakehouse.common.templates.TemplateField;
import java.util.List;

/** The {@code iceberg-catalog} template, as the seed describes it. */
public final class CatalogTemplate {

    public static final Template TEMPLATE = new Template(
            CatalogKind.KIND,
            "Apache Iceberg (Polaris catalog)",
            "Governance",
            "An Iceberg REST catalog (Apache Polaris) backed by a PostgreSQL database created alongside it."
                    + " Deploy it first: Trino, Spark Connect and JupyterHub refer to it. The instance becomes"
                    + " Ready only once its realm is initialized and the catalog is created with its grants.",
            List.of(
                    TemplateField.of("name", "Name", "General", "name").mandatory().fixedAfterCreation()
                            .help("Kubernetes name: lowercase letters, digits and '-'"),
                    TemplateField.of("spec.storage.bucket", "Warehouse S3 bucket", "Storage", "bucket").mandatory()
                            .fixedAfterCreation().help("Bucket that will hold tables and metadata. Picking a namespace bucket"
                                    + " fills in endpoint, region and credentials."),
                    TemplateField.of("spec.storage.endpoint", "S3 endpoint", "Storage", "url").mandatory().fixedAfterCreation(),
                    TemplateField.of("spec.storage.region", "S3 region", "Storage", "string").mandatory().fixedAfterCreation(),
                    TemplateField.of("spec.storage.pathStyleAccess", "Path-style access", "Storage", "boolean")
                            .fixedAfterCreation().defaultsTo(true),
                    TemplateField.of("spec.storage.credentialsSecret", "Credentials Secret", "Storage", "secretRef")
                            .fixedAfterCreation().help("A Secret of the namespace with AWS_ACCESS_KEY_ID and"
                                    + " AWS_SECRET_ACCESS_KEY; or give the keys below"),
                    TemplateField.of("spec.storage.accessKeyId", "Access key id", "Storage", "string").fixedAfterCreation()
                            .writeOnly(),
                    TemplateField.of("spec.storage.secretAccessKey", "Secret access key", "Storage", "string")
                            .fixedAfterCreation().writeOnly(),
                    TemplateField.of("spec.catalogName", "Iceberg catalog name", "General", "string").fixedAfterCreation()
                            .defaultsTo(CatalogSpec.DEFAULT_CATALOG_NAME)
                            .help("The warehouse that Trino, Spark or PyIceberg refer to"),
                    TemplateField.of("spec.realm", "Polaris realm", "General", "string").fixedAfterCreation()
                            .defaultsTo(CatalogSpec.DEFAULT_REALM).help("One realm per instance"),
                    TemplateField.of("spec.resources.memory", "Memory limit", "Resources", "quantity")
                            .defaultsTo(CatalogSpec.DEFAULT_MEMORY).range(CatalogRules.MIN_MEMORY, CatalogRules.MAX_MEMORY),
                    TemplateField.of("spec.resources.cpu", "CPU limit", "Resources", "quantity")
                            .defaultsTo(CatalogSpec.DEFAULT_CPU).range(CatalogRules.MIN_CPU, CatalogRules.MAX_CPU),
                    TemplateField.of("spec.database.storageSize", "PostgreSQL storage size", "Resources", "quantity")
                            .defaultsTo(CatalogSpec.DEFAULT_STORAGE_SIZE)
                            .range(CatalogRules.MIN_STORAGE, CatalogRules.MAX_STORAGE)
                            .help("Can grow later, never shrink")));

    private CatalogTemplate() {}
}
