package io.lakehouse.notebooks.unit.jupyterhub;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.lakehouse.common.kube.NetworkPolicies.IngressPeer;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.common.testing.TestCa;
import io.lakehouse.notebooks.kinds.jupyterhub.Bindings;
import io.lakehouse.notebooks.kinds.jupyterhub.HubContext;
import io.lakehouse.notebooks.kinds.jupyterhub.HubInstance;
import io.lakehouse.notebooks.kinds.jupyterhub.JupyterHubKind;
import io.lakehouse.notebooks.kinds.jupyterhub.JupyterHubSpec;
import io.lakehouse.notebooks.kinds.jupyterhub.LakehouseRefs;
import io.lakehouse.notebooks.kinds.jupyterhub.NotebookDefaults;
import io.lakehouse.notebooks.kinds.jupyterhub.PerUserSpec;
import java.util.List;
import java.util.UUID;

/** Hub instances and contexts the unit tests share. */
final class HubFixtures {

    static final NotebookDefaults DEFAULTS = new NotebookDefaults("ds/jupyter-datastack", "2026.11");
    static final UUID UID = UUID.fromString("6f1c2a9e-0d4b-4c47-9a57-3f3d1e0b2c11");

    private HubFixtures() {}

    /** Every field at its default, nothing bound. */
    static HubInstance defaults() {
        return new HubInstance("team-a", "notebooks", UID,
                JupyterHubKind.withDefaults(new JupyterHubSpec(null, null, null, null, null), DEFAULTS), "alice");
    }

    /** Every reference set, a token-protected Spark Connect, a bucket, explicit capacity. */
    static HubInstance wired() {
        JupyterHubSpec spec = new JupyterHubSpec("registry.example.org:5000/ds/jupyter-datastack", "2026.12",
                new PerUserSpec("2", "8Gi", "50Gi"),
                new LakehouseRefs("lakehouse-cat", "trino", "spark", "mlflow"),
                new StorageSpec("warehouse", "http://minio.team-a.svc:9000", "us-east-1", null, "team-a-warehouse",
                        null, null));
        return new HubInstance("team-a", "notebooks", UID, JupyterHubKind.withDefaults(spec, DEFAULTS), "alice");
    }

    /** What the service learned of wired()'s references. */
    static Bindings wiredBindings() {
        return new Bindings(
                new Bindings.Catalog("lakehouse-cat", "lakehouse-cat-root-principal"),
                new Bindings.Trino("trino", "trino.team-a.svc:8443"),
                new Bindings.SparkConnect("spark", "sc://spark.team-a.svc:15443/;use_ssl=true", "spark-platform",
                        "spark-tls"),
                new Bindings.Mlflow("mlflow", "http://mlflow.team-a.svc:5000"));
    }

    static HubContext context() {
        return new HubContext("notebooks-service", "lakehouse.example.org", "nginx", null, null,
                "http://access-service.lakehouse.svc:8085/api/v1/authz", "https://lakehouse.example.org/oauth2/start",
                null, "quay.io/jupyterhub/k8s-hub:4.4.0", "quay.io/jupyterhub/configurable-http-proxy:5.2.0",
                new HubContext.Capacity("500m", "1Gi"), new HubContext.Capacity("200m", "256Mi"),
                IngressPeer.of("ingress-nginx", ""), false, List.of());
    }

    static HubContext productionContext() {
        return new HubContext("notebooks-service", "data.example.com", "nginx-internal", "wildcard-tls", "fast-ssd",
                "http://access-service.lakehouse.svc:8085/api/v1/authz", "https://data.example.com/oauth2/start",
                "registry-pull", "registry.example.org:5000/jupyterhub/k8s-hub:4.4.0",
                "registry.example.org:5000/jupyterhub/configurable-http-proxy:5.2.0",
                new HubContext.Capacity("1", "2Gi"), new HubContext.Capacity("500m", "512Mi"),
                IngressPeer.of("ingress-nginx", "app.kubernetes.io/name=ingress-nginx"), true, TestCa.certificates());
    }

    static OwnerReference owner() {
        return new OwnerReferenceBuilder().withApiVersion("v1").withKind("ConfigMap").withName("notebooks-instance")
                .withUid("0b7e4c8a-5f0e-4d7c-8f41-2a6f9d3c1e22").withController(true).withBlockOwnerDeletion(true)
                .build();
    }
}
