package io.lakehouse.engines.unit.mlflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.ResourcesSpec;
import io.lakehouse.common.testing.CrdSchemas;
import io.lakehouse.common.testing.SchemaSupport;
import io.lakehouse.common.validation.Names;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.engines.kinds.mlflow.DatabaseSpec;
import io.lakehouse.engines.kinds.mlflow.MlflowKind;
import io.lakehouse.engines.kinds.mlflow.MlflowSpec;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.unit.EngineFixtures;
import org.junit.jupiter.api.Test;

/**
 * The CloudNativePG Cluster against the v1.30 CRD schema (deploy/crds), plus the admission webhook
 * rules the schema does not express.
 */
class MlflowCnpgClusterTest {

    private static final CrdSchemas CLUSTERS = CrdSchemas.named("postgresql.cnpg.io_clusters.yaml");

    @Test
    void theClusterValidatesAgainstTheCrdSchema() {
        CLUSTERS.assertValid(cluster(MlflowFixtures.defaults(), EngineFixtures.context()));
    }

    @Test
    void theClusterWithStorageClassAndImageValidatesAgainstTheCrdSchema() {
        GenericKubernetesResource cluster = cluster(MlflowFixtures.production(), EngineFixtures.productionContext());

        CLUSTERS.assertValid(cluster);
        JsonNode spec = SchemaSupport.toJson(cluster).path("spec");
        assertThat(spec.path("imageName").asText()).isEqualTo("registry.example.org/postgresql:16.4");
        assertThat(spec.path("storage").path("storageClass").asText()).isEqualTo("fast-ssd");
        assertThat(spec.path("storage").path("size").asText()).isEqualTo("20Gi");
        assertThat(spec.path("imagePullSecrets").toString()).isEqualTo("[{\"name\":\"registry-pull\"}]");
    }

    /** A single instance with a PodDisruptionBudget would block every node drain. */
    @Test
    void theSingleInstanceHasNoPodDisruptionBudget() {
        JsonNode spec = SchemaSupport.toJson(cluster(MlflowFixtures.defaults(), EngineFixtures.context())).path("spec");
        assertThat(spec.path("instances").asInt()).isEqualTo(1);
        assertThat(spec.path("enablePDB").isBoolean()).isTrue();
        assertThat(spec.path("enablePDB").asBoolean()).isFalse();
        assertThat(spec.has("imagePullSecrets")).isFalse();
    }

    @Test
    void theClusterForTheLargestDatabaseValidatesAgainstTheCrdSchema() {
        Instance big = MlflowFixtures.instance(new MlflowSpec(EngineFixtures.bucket(), null,
                MlflowKind.MAX_WORKERS, new ResourcesSpec(MlflowKind.MAX_MEMORY, MlflowKind.MAX_CPU),
                new DatabaseSpec(MlflowKind.MAX_STORAGE)));
        CLUSTERS.assertValid(cluster(big, EngineFixtures.context()));
    }

    @Test
    void theSchemaCheckCatchesAStringWhereAnIntegerBelongs() {
        ObjectNode broken = clusterJson();
        ((ObjectNode) broken.get("spec")).put("instances", "one");
        assertThat(CLUSTERS.validate(broken)).anySatisfy(m -> assertThat(m).contains("$.spec.instances"));
    }

    @Test
    void theSchemaCheckCatchesAnUnknownFieldTheApiServerWouldDrop() {
        ObjectNode broken = clusterJson();
        ((ObjectNode) broken.get("spec")).put("storageSize", "1Gi");
        assertThat(CLUSTERS.validate(broken)).anySatisfy(m -> assertThat(m).contains("storageSize"));
    }

    /** Webhook rule (validateApplicationDatabase): database and owner go together. */
    @Test
    void initdbNamesBothTheDatabaseAndItsOwner() {
        JsonNode initdb = clusterJson().path("spec").path("bootstrap").path("initdb");
        assertThat(initdb.path("database").asText()).isEqualTo("mlflow");
        assertThat(initdb.path("owner").asText()).isEqualTo("mlflow");
    }

    /** Webhook rule (validateStorageSize): no size and no pvcTemplate request is refused. */
    @Test
    void theStorageSizeTheWebhookRequiresIsTheRequestedOne() {
        assertThat(clusterJson().path("spec").path("storage").path("size").asText()).isEqualTo("1Gi");
    }

    /** Webhook rule (validateName): a DNS-1035 label of at most 50 characters, for every accepted name. */
    @Test
    void everyNameTheRulesAcceptGivesAClusterNameTheWebhookAccepts() {
        String longest = longestAcceptedName();
        String clusterName = cluster(EngineFixtures.instance(MlflowKind.KIND, longest,
                MlflowFixtures.spec(MlflowFixtures.bucketOnly())), EngineFixtures.context()).getMetadata().getName();

        assertThat(longest).hasSize(47);
        assertThat(clusterName).hasSizeLessThanOrEqualTo(50);
        assertThat(Names.isDns1035Label(clusterName)).isTrue();
    }

    private static String longestAcceptedName() {
        for (int length = 63; length > 0; length--) {
            String name = "m".repeat(length);
            Violations v = new Violations();
            MlflowFixtures.KIND.checkCreate(v, name, "ns", MlflowFixtures.spec(MlflowFixtures.bucketOnly()));
            if (v.isEmpty()) {
                return name;
            }
        }
        throw new AssertionError("no name accepted");
    }

    private static ObjectNode clusterJson() {
        return (ObjectNode) SchemaSupport.toJson(cluster(MlflowFixtures.defaults(), EngineFixtures.context()))
                .deepCopy();
    }

    private static GenericKubernetesResource cluster(Instance inst, EngineContext ctx) {
        HasMetadata cluster = MlflowFixtures.KIND.objects(inst, ctx, EngineFixtures.owner()).stream()
                .filter(o -> "Cluster".equals(o.getKind())).findFirst().orElseThrow();
        return (GenericKubernetesResource) cluster;
    }
}
