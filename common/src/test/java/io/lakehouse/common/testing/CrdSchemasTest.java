package io.lakehouse.common.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** The helper against the real CloudNativePG CRD of deploy/crds. */
class CrdSchemasTest {

    private static final CrdSchemas CLUSTERS = CrdSchemas.named("postgresql.cnpg.io_clusters.yaml");

    /** The minimal Cluster of CloudNativePG's quickstart. */
    private static ObjectNode cluster() throws Exception {
        return (ObjectNode) SchemaSupport.JSON.readTree("""
                {"apiVersion": "postgresql.cnpg.io/v1", "kind": "Cluster",
                 "metadata": {"name": "polaris-db", "namespace": "ns", "labels": {"a": "b"}},
                 "spec": {"instances": 1, "storage": {"size": "1Gi"},
                          "bootstrap": {"initdb": {"database": "polaris", "owner": "polaris",
                                                   "secret": {"name": "polaris-db-app"}}},
                          "resources": {"requests": {"memory": "256Mi", "cpu": "100m"},
                                        "limits": {"memory": "512Mi", "cpu": 1}}}}
                """);
    }

    private static ObjectNode spec(ObjectNode cluster) {
        return (ObjectNode) cluster.get("spec");
    }

    @Test
    void readsTheFirstVersionOfTheCrd() {
        assertThat(CLUSTERS.name()).isEqualTo("clusters.postgresql.cnpg.io");
        assertThat(CLUSTERS.version()).isEqualTo("v1");
    }

    @Test
    void aValidClusterHasNoProblem() throws Exception {
        assertThat(CLUSTERS.validate(cluster())).isEmpty();
        assertThatCode(() -> CLUSTERS.assertValid(cluster())).doesNotThrowAnyException();
    }

    @Test
    void aStringWhereTheSchemaWantsAnIntegerIsAProblem() throws Exception {
        ObjectNode cluster = cluster();
        spec(cluster).put("instances", "one");
        assertThat(CLUSTERS.validate(cluster)).anySatisfy(m -> assertThat(m).contains("$.spec.instances"));
    }

    @Test
    void aValueBelowTheMinimumIsAProblem() throws Exception {
        ObjectNode cluster = cluster();
        spec(cluster).put("instances", 0);
        assertThat(CLUSTERS.validate(cluster)).anySatisfy(m -> assertThat(m).contains("$.spec.instances"));
    }

    @Test
    void aMissingRequiredFieldIsAProblem() throws Exception {
        ObjectNode cluster = cluster();
        spec(cluster).remove("instances");
        assertThat(CLUSTERS.validate(cluster)).anySatisfy(m -> assertThat(m).contains("instances"));
    }

    @Test
    void anObjectWhereTheSchemaWantsAStringIsAProblem() throws Exception {
        ObjectNode cluster = cluster();
        ((ObjectNode) spec(cluster).get("storage")).putObject("size").put("gi", 1);
        assertThat(CLUSTERS.validate(cluster)).anySatisfy(m -> assertThat(m).contains("$.spec.storage.size"));
    }

    @Test
    void aQuantityNotMatchingThePatternIsAProblem() throws Exception {
        ObjectNode cluster = cluster();
        ((ObjectNode) spec(cluster).with("resources").with("limits")).put("memory", "1 gigabyte");
        assertThat(CLUSTERS.validate(cluster)).anySatisfy(m -> assertThat(m).contains("$.spec.resources.limits.memory"));
    }

    @Test
    void anUnknownFieldIsAProblemInStrictModeOnly() throws Exception {
        ObjectNode cluster = cluster();
        spec(cluster).with("storage").put("sizee", "2Gi");
        assertThat(CLUSTERS.validate(cluster)).anySatisfy(m -> assertThat(m).contains("sizee"));
        assertThat(CLUSTERS.lenient().validate(cluster)).isEmpty();
    }

    @Test
    void freeFormMapsStayOpen() throws Exception {
        ObjectNode cluster = cluster();
        ((ObjectNode) cluster.get("metadata")).with("annotations").put("any/key", "v");
        assertThat(CLUSTERS.validate(cluster)).isEmpty();
    }

    @Test
    void assertValidListsEveryProblem() throws Exception {
        ObjectNode cluster = cluster();
        spec(cluster).put("instances", "one");
        spec(cluster).put("unknownField", true);
        assertThatThrownBy(() -> CLUSTERS.assertValid(cluster))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("$.spec.instances")
                .hasMessageContaining("unknownField");
    }
}
