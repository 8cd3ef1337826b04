package io.lakehouse.engines.kinds.mlflow;

import io.lakehouse.common.templates.Template;
import io.lakehouse.common.templates.TemplateField;
import java.util.List;

/** The {@code mlflow} template, as the seed describes it. */
final class MlflowTemplate {

    static final Template TEMPLATE = new Template(
            MlflowKind.KIND,
            "MLflow",
            "Data science",
            "An MLflow tracking server: experiments, runs and model registry in a PostgreSQL database"
                    + " (CloudNativePG) created alongside it, artifacts served by the server on an S3 bucket."
                    + " Web access is protected by the platform login; allowed users and groups are managed from"
                    + " Access. Notebooks of the namespace use the internal address without login and need no S3"
                    + " keys.",
            List.of(
                    TemplateField.of("name", "Name", "General", "name").mandatory().fixedAfterCreation()
                            .help("Kubernetes name: lowercase letters, digits and '-'"),
                    TemplateField.of("spec.storage.bucket", "Artifacts S3 bucket", "Storage", "bucket").mandatory()
                            .fixedAfterCreation().help("Bucket of the artifacts. Picking a namespace bucket fills in"
                                    + " endpoint, region and credentials."),
                    TemplateField.of("spec.storage.endpoint", "S3 endpoint", "Storage", "url").mandatory()
                            .fixedAfterCreation(),
                    TemplateField.of("spec.storage.region", "S3 region", "Storage", "string").mandatory()
                            .fixedAfterCreation(),
                    TemplateField.of("spec.storage.pathStyleAccess", "Path-style access", "Storage", "boolean")
                            .fixedAfterCreation().defaultsTo(true),
                    TemplateField.of("spec.storage.credentialsSecret", "Credentials Secret", "Storage", "secretRef")
                            .fixedAfterCreation().help("A Secret of the namespace with AWS_ACCESS_KEY_ID and"
                                    + " AWS_SECRET_ACCESS_KEY; or give the keys below"),
                    TemplateField.of("spec.storage.accessKeyId", "Access key id", "Storage", "string")
                            .fixedAfterCreation().writeOnly(),
                    TemplateField.of("spec.storage.secretAccessKey", "Secret access key", "Storage", "string")
                            .fixedAfterCreation().writeOnly(),
                    TemplateField.of("spec.artifactsPrefix", "Artifacts prefix", "Storage", "string")
                            .fixedAfterCreation().defaultsTo(MlflowKind.DEFAULT_ARTIFACTS_PREFIX)
                            .help("Artifacts go to s3://<bucket>/<prefix>"),
                    TemplateField.of("spec.workers", "Server processes", "Resources", "integer")
                            .defaultsTo(MlflowKind.DEFAULT_WORKERS)
                            .range(String.valueOf(MlflowKind.MIN_WORKERS), String.valueOf(MlflowKind.MAX_WORKERS)),
                    TemplateField.of("spec.resources.memory", "Memory limit", "Resources", "quantity")
                            .defaultsTo(MlflowKind.DEFAULT_MEMORY).range(MlflowKind.MIN_MEMORY, MlflowKind.MAX_MEMORY),
                    TemplateField.of("spec.resources.cpu", "CPU limit", "Resources", "quantity")
                            .defaultsTo(MlflowKind.DEFAULT_CPU).range(MlflowKind.MIN_CPU, MlflowKind.MAX_CPU),
                    TemplateField.of("spec.database.storageSize", "PostgreSQL storage size", "Resources", "quantity")
                            .defaultsTo(MlflowKind.DEFAULT_STORAGE_SIZE)
                            .range(MlflowKind.MIN_STORAGE, MlflowKind.MAX_STORAGE)
                            .help("Can grow later, never shrink")));

    private MlflowTemplate() {}
}
