package io.lakehouse.notebooks.kinds.jupyterhub;

import io.lakehouse.common.templates.Template;
import io.lakehouse.common.templates.TemplateField;
import java.util.List;

/** The {@code jupyterhub} template, as the seed describes it. */
final class JupyterHubTemplate {

    private JupyterHubTemplate() {}

    static Template of(NotebookDefaults defaults) {
        return new Template(
                HubInstance.KIND,
                "JupyterHub",
                "Data science",
                "Every user gets their own JupyterLab server with a personal persistent volume and signs in with"
                        + " the platform account; whoever deploys the instance administers it (/hub/admin). Instances"
                        + " of the namespace picked on the Lakehouse tab are pre-wired into notebooks as environment"
                        + " variables. One JupyterHub per namespace; servers idle for an hour are stopped (the volume"
                        + " is kept).",
                List.of(
                        TemplateField.of("name", "Name", "General", "name").mandatory().fixedAfterCreation()
                                .help("Kubernetes name: lowercase letters, digits and '-'"),
                        TemplateField.of("spec.image", "Notebook image", "General", "string").fixedAfterCreation()
                                .defaultsTo(defaults.image())
                                .help("Image of user servers: JupyterLab + Spark Connect, PyIceberg, Trino and"
                                        + " MLflow clients by default"),
                        TemplateField.of("spec.version", "Version", "General", "string").fixedAfterCreation()
                                .defaultsTo(defaults.version()),
                        TemplateField.of("spec.perUser.cpu", "Max CPU per user", "Resources", "quantity")
                                .defaultsTo(JupyterHubKind.DEFAULT_CPU)
                                .range(JupyterHubRules.MIN_CPU, JupyterHubRules.MAX_CPU),
                        TemplateField.of("spec.perUser.memory", "Max memory per user", "Resources", "quantity")
                                .defaultsTo(JupyterHubKind.DEFAULT_MEMORY)
                                .range(JupyterHubRules.MIN_MEMORY, JupyterHubRules.MAX_MEMORY),
                        TemplateField.of("spec.perUser.storage", "Storage per user", "Resources", "quantity")
                                .defaultsTo(JupyterHubKind.DEFAULT_STORAGE)
                                .range(JupyterHubRules.MIN_STORAGE, JupyterHubRules.MAX_STORAGE)
                                .help("Size of each user's volume, created at the first start and kept when the"
                                        + " server stops; a change applies to volumes created afterwards"),
                        reference("catalog", "Apache Iceberg catalog", "iceberg-catalog",
                                "POLARIS_URI, POLARIS_WAREHOUSE, POLARIS_CREDENTIAL, POLARIS_SCOPE"),
                        reference("trino", "Trino", "trino", "TRINO_HOST"),
                        reference("sparkConnect", "Spark Connect", "spark-connect", "SPARK_REMOTE"),
                        reference("mlflow", "MLflow", "mlflow", "MLFLOW_TRACKING_URI"),
                        TemplateField.of("spec.storage.bucket", "S3 bucket", "Storage", "bucket").fixedAfterCreation()
                                .help("S3 keys exposed to notebooks (AWS_*). Picking a namespace bucket fills in"
                                        + " endpoint, region and credentials."),
                        TemplateField.of("spec.storage.endpoint", "S3 endpoint", "Storage", "url")
                                .fixedAfterCreation(),
                        TemplateField.of("spec.storage.region", "S3 region", "Storage", "string").fixedAfterCreation(),
                        TemplateField.of("spec.storage.credentialsSecret", "Credentials Secret", "Storage",
                                "secretRef").fixedAfterCreation()
                                .help("A Secret of the namespace with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY;"
                                        + " or give the keys below"),
                        TemplateField.of("spec.storage.accessKeyId", "Access key id", "Storage", "string")
                                .fixedAfterCreation().writeOnly(),
                        TemplateField.of("spec.storage.secretAccessKey", "Secret access key", "Storage", "string")
                                .fixedAfterCreation().writeOnly()));
    }

    private static TemplateField reference(String field, String label, String kind, String variables) {
        return TemplateField.of("spec.lakehouse." + field, label, "Lakehouse", "instance:" + kind)
                .help("A " + kind + " instance of this namespace; notebooks get " + variables);
    }
}
