package io.lakehouse.engines.unit;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.instances.Phase;
import io.lakehouse.common.kube.NetworkPolicies.IngressPeer;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.common.testing.TestCa;
import io.lakehouse.engines.reconcile.EngineContext;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Fixed instances and contexts for the pure builder tests (golden files depend on every value here). */
public final class EngineFixtures {

    public static final String NAMESPACE = "team-a";
    public static final String CATALOG = "lakehouse-cat";

    private EngineFixtures() {}

    /**
     * The local stack's settings: no TLS secret, no storage class, no pull secret, the default Spark image
     * (Iceberg jars included, nothing downloaded at start).
     */
    public static EngineContext context() {
        return context("");
    }

    /** {@link #context()} with {@code lakehouse.engines.spark-packages} set (a plain Spark image). */
    public static EngineContext context(String sparkPackages) {
        return new EngineContext("engines-service", "lakehouse.localtest.me", "nginx", null, null, null,
                "https://keycloak.lakehouse.localtest.me/realms/lakehouse",
                "http://access-service.lakehouse-system.svc:8085/api/v1/authz",
                "https://login.lakehouse.localtest.me/oauth2/start", null, "trinodb/trino:480",
                "lakehouse/spark-iceberg:4.0.1-iceberg1.10.1", "ghcr.io/mlflow/mlflow:v3.9.0-full",
                "apache/nifi:2.11.0", "envoyproxy/envoy:v1.36.2", sparkPackages,
                IngressPeer.of("ingress-nginx", "app.kubernetes.io/name=ingress-nginx,app.kubernetes.io/component=controller"),
                "lakehouse-api", false, List.of());
    }

    /**
     * A production-like cluster: wildcard certificate, storage class, pinned images, a pull secret, S3
     * checksums only when required, a private CA bundle.
     */
    public static EngineContext productionContext() {
        return new EngineContext("engines-service", "data.example.org", "nginx", "wildcard-tls", "fast-ssd",
                "registry.example.org/postgresql:16.4", "https://sso.example.org/realms/data",
                "http://access-service.platform.svc:8085/api/v1/authz", "https://login.data.example.org/oauth2/start",
                "registry-pull", "registry.example.org/trino:480", "registry.example.org/spark-iceberg:4.0.1",
                "registry.example.org/mlflow:v3.9.0-full", "registry.example.org/nifi:2.11.0",
                "registry.example.org/envoy:v1.36.2", "", IngressPeer.of("gateway", "app=gateway"), "lakehouse-api",
                true, TestCa.certificates());
    }

    public static OwnerReference owner() {
        return new OwnerReferenceBuilder().withApiVersion("v1").withKind("ConfigMap").withName("x-instance")
                .withUid("00000000-0000-0000-0000-0000000000aa").withController(true).withBlockOwnerDeletion(true)
                .build();
    }

    /** The namespace bucket the catalog fixture uses. */
    public static StorageSpec bucket() {
        return new StorageSpec("warehouse", "http://minio.storage.svc:9000", "us-east-1", true, "warehouse-bucket",
                null, null);
    }

    public static CatalogRef catalog() {
        return new CatalogRef(NAMESPACE, CATALOG, "lakehouse", bucket(), "Ready", false);
    }

    public static Instance instance(String kind, String name, InstanceSpec spec) {
        return new Instance(NAMESPACE, name, kind, UUID.fromString("00000000-0000-0000-0000-000000000001"), spec,
                null, 1, Phase.Pending, List.of(), false, "alice", Instant.parse("2026-12-01T10:00:00Z"));
    }
}
