package io.lakehouse.catalog.unit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.lakehouse.catalog.domain.CatalogKind;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.catalog.domain.CatalogSpec;
import io.lakehouse.catalog.domain.DatabaseSpec;
import io.lakehouse.catalog.domain.ResourcesSpec;
import io.lakehouse.catalog.reconcile.CatalogContext;
import io.lakehouse.catalog.reconcile.CatalogDatabase;
import io.lakehouse.catalog.reconcile.CatalogLabels;
import io.lakehouse.catalog.reconcile.CatalogSecrets;
import io.lakehouse.catalog.reconcile.CatalogTasks;
import io.lakehouse.catalog.reconcile.PolarisConfig;
import io.lakehouse.catalog.reconcile.PolarisServer;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.instances.Phase;
import io.lakehouse.common.kube.NetworkPolicies.IngressPeer;
import io.lakehouse.common.kube.OwnerReferences;
import io.lakehouse.common.storage.SealedCredentials;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.common.testing.TestCa;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One fixed catalog instance, as catalog-service stores it, in its two storage variants, and every
 * object the reconciler builds for it, with fixed "generated" values instead of random ones.
 */
final class Fixtures {

    static final String NAMESPACE = "team-a";
    static final String NAME = "warehouse";
    static final UUID INSTANCE_UID = UUID.fromString("9d7c2b4e-1f3a-4c5d-8e6f-0a1b2c3d4e5f");
    /** The uid the API server gave the root object (owner of everything else). */
    static final String DATABASE_UID = "3c2b1a09-8f7e-4d6c-b5a4-93827160f5e4";
    static final String ROOT_UID = "5e1d2c3b-4a59-4687-9f0e-1d2c3b4a5968";
    static final String CLIENT_ID = "client-id-1";
    static final String CLIENT_SECRET = "client-secret-1";
    static final String TOKEN_KEY = "token-key-1";
    static final String ACCESS_KEY_ID = "AKIAFIXTUREKEY000001";
    static final String SECRET_ACCESS_KEY = "fixture/Secret+Access=Key/000000000000001";
    static final String BUCKET = "lake-bucket";
    static final String ENDPOINT = "http://minio.storage.svc:9000";
    static final String REGION = "eu-west-3";
    static final String BUCKET_SECRET = "lake-bucket-keys";

    /** Every value that must appear only in a Secret's data. */
    static final List<String> SECRET_VALUES =
            List.of(CLIENT_ID, CLIENT_SECRET, TOKEN_KEY, ACCESS_KEY_ID, SECRET_ACCESS_KEY);

    private Fixtures() {}

    /** The platform defaults (no TLS secret, default storage class, operator's Postgres image). */
    static CatalogContext context() {
        return new CatalogContext("catalog-service", "lakehouse.localtest.me", "nginx", null, null,
                "apache/polaris:1.7.0", "apache/polaris-admin-tool:1.7.0", "curlimages/curl:8.11.1", null, null,
                IngressPeer.of("ingress-nginx", "app.kubernetes.io/name=ingress-nginx,app.kubernetes.io/component=controller"),
                false, List.of());
    }

    /**
     * A cluster with a wildcard certificate, a storage class, mirrored images and their pull secret, and
     * an S3 store that wants checksums only when required, a private CA bundle.
     */
    static CatalogContext productionContext() {
        return new CatalogContext("catalog-service", "data.example.org", "nginx", "wildcard-tls", "fast-ssd",
                "registry.example.org/apache/polaris:1.7.0", "registry.example.org/apache/polaris-admin-tool:1.7.0",
                "registry.example.org/curlimages/curl:8.11.1", "registry.example.org/cloudnative-pg/postgresql:17.5",
                "registry-pull", IngressPeer.of("gateway", "app=gateway"), true, TestCa.certificates());
    }

    /** The request spec with a namespace bucket's Secret. */
    static CatalogSpec requestWithSecret() {
        return new CatalogSpec(new StorageSpec(BUCKET, ENDPOINT, REGION, null, BUCKET_SECRET, null, null),
                null, null, null, null);
    }

    /** The request spec with keys typed in the form. */
    static CatalogSpec requestWithKeys() {
        return new CatalogSpec(new StorageSpec(BUCKET, ENDPOINT, REGION, null, null, ACCESS_KEY_ID, SECRET_ACCESS_KEY),
                null, null, null, null);
    }

    /** Stored with a namespace bucket's Secret: no sealed keys. */
    static Instance withCredentialsSecret() {
        return instance(requestWithSecret().withDefaults(), null);
    }

    /** Stored with typed keys: the spec names {@code <name>-s3}, the keys are sealed aside. */
    static Instance withInlineKeys() {
        CatalogSpec spec = requestWithKeys().withDefaults();
        CatalogSpec stored = spec.withStorage(spec.storage().withoutKeys(CatalogNames.s3Secret(NAME)));
        return instance(stored, new SealedCredentials("sealed-access-key", "sealed-secret-key"));
    }

    static Instance instance(CatalogSpec spec, SealedCredentials sealed) {
        return new Instance(NAMESPACE, NAME, CatalogKind.KIND, INSTANCE_UID, spec, sealed, 1, Phase.Pending, List.of(), false,
                "alice", Instant.parse("2026-01-02T03:04:05Z"));
    }

    /** Another name and namespace, a namespace bucket's Secret. */
    static Instance named(String name, String namespace, CatalogSpec spec) {
        return new Instance(namespace, name, CatalogKind.KIND, INSTANCE_UID, spec, null, 1, Phase.Pending, List.of(), false,
                "alice", Instant.parse("2026-01-02T03:04:05Z"));
    }

    static CatalogSpec spec(String memory, String cpu, String storageSize) {
        return new CatalogSpec(new StorageSpec(BUCKET, ENDPOINT, REGION, true, BUCKET_SECRET, null, null),
                "lakehouse", "POLARIS", new ResourcesSpec(memory, cpu), new DatabaseSpec(storageSize));
    }

    static OwnerReference owner() {
        return OwnerReferences.controlledBy("v1", "ConfigMap", CatalogNames.root(NAME), ROOT_UID);
    }

    /** The instance's database Cluster as CloudNativePG reports it: {@code phase}, {@code readyInstances}. */
    static GenericKubernetesResource database(String phase, int readyInstances) {
        return new GenericKubernetesResourceBuilder().withApiVersion("postgresql.cnpg.io/v1").withKind("Cluster")
                .withNewMetadata().withName(CatalogNames.database(NAME)).endMetadata()
                .withAdditionalProperties(Map.of("status", Map.of("phase", phase, "readyInstances", readyInstances)))
                .build();
    }

    static GenericKubernetesResource healthyDatabase() {
        return database("Cluster in healthy state", 1);
    }

    static GenericKubernetesResource databaseWithUid(String uid) {
        GenericKubernetesResource db = healthyDatabase();
        db.getMetadata().setUid(uid);
        return db;
    }

    /** The Polaris server's Deployment with {@code available} replicas available. */
    static Deployment server(int available) {
        return new DeploymentBuilder().withNewMetadata().withName(CatalogNames.server(NAME)).endMetadata()
                .withNewStatus().withReplicas(1).withAvailableReplicas(available == 0 ? null : available).endStatus()
                .build();
    }

    /** Every object of the instance, in the reconciler's order, the root first. */
    static List<HasMetadata> objects(Instance inst, CatalogContext ctx) {
        OwnerReference owner = owner();
        List<HasMetadata> objects = new ArrayList<>();
        objects.add(InstanceObjects.rootObject(inst, CatalogLabels.APP, ctx));
        objects.add(CatalogSecrets.rootPrincipal(inst, ctx, owner, CLIENT_ID, CLIENT_SECRET));
        objects.add(CatalogSecrets.tokenBroker(inst, ctx, owner, TOKEN_KEY));
        if (inst.sealedCredentials() != null) {
            objects.add(InstanceObjects.s3Secret(inst, CatalogLabels.APP, ctx, owner, ACCESS_KEY_ID,
                    SECRET_ACCESS_KEY));
        }
        objects.add(CatalogDatabase.of(inst, ctx));
        objects.add(PolarisConfig.configMap(inst, ctx, owner));
        objects.add(PolarisServer.deployment(inst, ctx, owner));
        objects.add(PolarisServer.service(inst, ctx, owner));
        objects.add(PolarisServer.ingress(inst, ctx, owner));
        objects.add(PolarisServer.networkPolicy(inst, ctx, owner));
        objects.add(CatalogTasks.realmInit(inst, ctx, owner, DATABASE_UID));
        objects.add(CatalogTasks.catalogInitConfig(inst, ctx, owner));
        objects.add(CatalogTasks.catalogInit(inst, ctx, owner));
        return objects;
    }
}
