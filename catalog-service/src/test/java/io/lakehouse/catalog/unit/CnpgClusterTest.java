package io.lakehouse.catalog.unit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.lakehouse.catalog.domain.CatalogRules;
import io.lakehouse.catalog.reconcile.CatalogContext;
import io.lakehouse.catalog.reconcile.CatalogDatabase;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.testing.CrdSchemas;
import io.lakehouse.common.testing.SchemaSupport;
import io.lakehouse.common.validation.Names;
import io.lakehouse.common.validation.Quantities;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * The CloudNativePG Cluster against the v1.30 CRD schema (deploy/crds), plus the admission webhook
 * rules the schema does not express.
 */
class CnpgClusterTest {

    private static final CrdSchemas CLUSTERS = CrdSchemas.named("postgresql.cnpg.io_clusters.yaml");

    private static GenericKubernetesResource cluster(Instance inst, CatalogContext ctx) {
        return CatalogDatabase.of(inst, ctx);
    }

    private static ObjectNode clusterJson() {
        return (ObjectNode) SchemaSupport.toJson(cluster(Fixtures.withCredentialsSecret(), Fixtures.context())).deepCopy();
    }

    @Test
    void theClusterValidatesAgainstTheCrdSchema() {
        CLUSTERS.assertValid(cluster(Fixtures.withCredentialsSecret(), Fixtures.context()));
    }

    @Test
    void theClusterWithStorageClassAndImageValidatesAgainstTheCrdSchema() {
        CLUSTERS.assertValid(cluster(Fixtures.withInlineKeys(), Fixtures.productionContext()));
    }

    @Test
    void theClusterForTheLargestCapacityValidatesAgainstTheCrdSchema() {
        Instance big = Fixtures.instance(Fixtures.spec(CatalogRules.MAX_MEMORY, CatalogRules.MAX_CPU,
                CatalogRules.MAX_STORAGE), null);
        CLUSTERS.assertValid(cluster(big, Fixtures.context()));
    }

    @Test
    void theSchemaCheckCatchesAStringWhereAnIntegerBelongs() {
        ObjectNode broken = clusterJson();
        ((ObjectNode) broken.get("spec")).put("instances", "one");
        assertThat(CLUSTERS.validate(broken)).anySatisfy(m -> assertThat(m).contains("$.spec.instances"));
    }

    @Test
    void theSchemaCheckCatchesAnObjectWhereTheSizeStringBelongs() {
        ObjectNode broken = clusterJson();
        ((ObjectNode) broken.get("spec").get("storage")).putObject("size").put("value", 1);
        assertThat(CLUSTERS.validate(broken)).anySatisfy(m -> assertThat(m).contains("$.spec.storage.size"));
    }

    @Test
    void theSchemaCheckCatchesAnUnknownFieldTheApiServerWouldDrop() {
        ObjectNode broken = clusterJson();
        ((ObjectNode) broken.get("spec")).put("storageSize", "1Gi");
        assertThat(CLUSTERS.validate(broken)).anySatisfy(m -> assertThat(m).contains("storageSize"));
    }

    @Test
    void theSchemaCheckCatchesAMissingRequiredField() {
        ObjectNode broken = clusterJson();
        ((ObjectNode) broken.get("spec").get("bootstrap").get("initdb")).putObject("secret");
        assertThat(CLUSTERS.validate(broken)).anySatisfy(m -> assertThat(m).contains("name"));
    }

    /** Webhook rule (validateStorageSize): no size and no pvcTemplate request is refused. */
    @Test
    void theStorageSizeTheWebhookRequiresIsSetToTheRequestedQuantity() {
        JsonNode storage = clusterJson().path("spec").path("storage");
        assertThat(storage.path("size").asText()).isEqualTo("1Gi");
        Instance big = Fixtures.instance(Fixtures.spec("1Gi", "1", "20Gi"), null);
        assertThat(SchemaSupport.toJson(cluster(big, Fixtures.context())).path("spec").path("storage").path("size")
                .asText()).isEqualTo("20Gi");
    }

    /** One instance: a PodDisruptionBudget on its primary would block every node drain. */
    @Test
    void aSingleInstanceClusterHasNoPodDisruptionBudget() {
        JsonNode spec = clusterJson().path("spec");
        assertThat(spec.path("instances").asInt()).isEqualTo(1);
        assertThat(spec.path("enablePDB").isBoolean()).isTrue();
        assertThat(spec.path("enablePDB").asBoolean()).isFalse();
    }

    /** The operand image comes through the cluster's pull secret when there is one. */
    @Test
    void theClusterPullsItsImageWithTheClusterPullSecret() {
        assertThat(clusterJson().path("spec").has("imagePullSecrets")).isFalse();
        JsonNode production = SchemaSupport.toJson(cluster(Fixtures.withInlineKeys(), Fixtures.productionContext()));
        assertThat(production.path("spec").path("imagePullSecrets").toString()).isEqualTo("[{\"name\":\"registry-pull\"}]");
    }

    /** Webhook rule (validateApplicationDatabase): database and owner go together. */
    @Test
    void initdbNamesBothTheDatabaseAndItsOwner() {
        JsonNode initdb = clusterJson().path("spec").path("bootstrap").path("initdb");
        assertThat(initdb.path("database").asText()).isEqualTo("polaris");
        assertThat(initdb.path("owner").asText()).isEqualTo("polaris");
    }

    /** Webhook rule (validateResources): requests may not exceed limits. */
    @Test
    void resourceRequestsDoNotExceedLimits() {
        JsonNode resources = clusterJson().path("spec").path("resources");
        for (String resource : new String[] {"cpu", "memory"}) {
            BigDecimal request = Quantities.parse(resources.path("requests").path(resource).asText()).orElseThrow();
            BigDecimal limit = Quantities.parse(resources.path("limits").path(resource).asText()).orElseThrow();
            assertThat(request).as(resource).isLessThanOrEqualTo(limit);
        }
    }

    /** Webhook rule (validateName): a DNS-1035 label of at most 50 characters. */
    @Test
    void theFixtureClusterNameIsOneTheWebhookAccepts() {
        String name = cluster(Fixtures.withCredentialsSecret(), Fixtures.context()).getMetadata().getName();
        assertThat(Names.isDns1035Label(name)).isTrue();
        assertThat(name).hasSizeLessThanOrEqualTo(50);
    }

    /**
     * Fails today: CatalogRules accepts instance names of up to 48 characters (63 minus the longest
     * derived suffix, "-root-principal"), but the Cluster is named {@code <name>-db}: 51 characters,
     * and CloudNativePG's webhook refuses cluster names longer than 50 ("the maximum length of a
     * cluster name is 50 characters", internal/webhook/v1/cluster_webhook.go, validateName).
     */
    @Test
    void everyNameTheRulesAcceptGivesAClusterNameTheWebhookAccepts() {
        String longest = longestAcceptedName("ns");
        String clusterName = cluster(Fixtures.named(longest, "ns", Fixtures.requestWithSecret().withDefaults()),
                Fixtures.context()).getMetadata().getName();
        assertThat(clusterName).as("Cluster name for the accepted instance name '%s'", longest)
                .hasSizeLessThanOrEqualTo(50);
    }

    private static String longestAcceptedName(String namespace) {
        for (int length = 63; length > 0; length--) {
            String name = "a".repeat(length);
            try {
                CatalogRules.checkCreate(name, namespace, Fixtures.requestWithSecret());
                return name;
            } catch (ApiException e) {
                // too long, try shorter
            }
        }
        throw new AssertionError("no name accepted");
    }
}
