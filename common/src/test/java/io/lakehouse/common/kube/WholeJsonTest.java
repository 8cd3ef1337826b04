package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WholeJsonTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void keepsWhatAComparisonReadsAndGivesItBackDeflatedAgainstItsShapesSample() {
        DeflateDictionary dictionary = new DeflateDictionary();
        WholeJson first = WholeJson.of("1", WholeJson.compared(configMap("lake-1", "a")), dictionary, "config");
        byte[] learned = dictionary.sample("config");
        assertThat(learned).as("the first of its shape is its sample").isNotEmpty();

        WholeJson second = WholeJson.of("2", WholeJson.compared(configMap("lake-2", "b")), dictionary, "config");
        assertThat(dictionary.sample("config")).as("like the sample: not a sample").isSameAs(learned);
        assertThat(second.deflated().length).as("against the sample, a fraction of the first")
                .isLessThan(first.deflated().length / 3);

        WholeJson other = WholeJson.of("3", WholeJson.compared(MAPPER.valueToTree(Map.of("kind", "Service",
                "apiVersion", "v1", "spec", Map.of("ports", Map.of("http", 8181, "management", 8182),
                        "selector", Map.of("app", "x"))))), dictionary, "service");
        assertThat(dictionary.shapes()).as("another shape, a sample of its own").isEqualTo(2);
        assertThat(dictionary.sample("config")).isSameAs(learned);

        JsonNode tree = first.tree();
        assertThat(tree.path("data").path("application.properties").asText()).contains("lake-1");
        assertThat(tree.path("metadata").path("labels").path("app").asText()).isEqualTo("lake-1");
        assertThat(tree.path("metadata").path("annotations").path("note").asText()).isEqualTo("kept");
        assertThat(tree.path("metadata").path("ownerReferences").get(0).path("uid").asText()).isEqualTo("u-lake-1");
        assertThat(tree.path("metadata").path("annotations").has(CompactObject.LAST_APPLIED)).isFalse();
        assertThat(tree.path("metadata").has("managedFields")).isFalse();
        assertThat(tree.path("metadata").has("uid")).isFalse();
        assertThat(tree.has("status")).as("never compared").isFalse();
        assertThat(second.tree().path("data").path("application.properties").asText()).contains("lake-2");
        assertThat(other.tree().path("spec").path("ports").path("http").asInt()).isEqualTo(8181);
    }

    @Test
    void anObjectUnlikeItsShapesSampleTakesItsPlaceButShapesAndSamplesAreBounded() {
        DeflateDictionary dictionary = new DeflateDictionary();
        WholeJson.of("1", WholeJson.compared(configMap("lake-1", random(1000))), dictionary, "config");
        byte[] first = dictionary.sample("config");
        WholeJson kept = WholeJson.of("2", WholeJson.compared(configMap("lake-2", random(1000))), dictionary, "config");
        assertThat(dictionary.sample("config")).as("deflated poorly: the new sample").isNotSameAs(first);
        assertThat(kept.tree().path("metadata").path("labels").path("app").asText()).isEqualTo("lake-2");

        WholeJson.of("3", WholeJson.compared(configMap("lake-3", random(20_000))), dictionary, "big");
        assertThat(dictionary.sample("big")).as("larger than a sample may be").isEmpty();
        for (int i = 0; i < DeflateDictionary.MAX_SHAPES + 10; i++) {
            WholeJson.of("1", WholeJson.compared(configMap("lake-" + i, random(100))), dictionary, "shape-" + i);
        }
        assertThat(dictionary.shapes()).isEqualTo(DeflateDictionary.MAX_SHAPES);
    }

    private static JsonNode configMap(String name, String value) {
        return MAPPER.valueToTree(Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", name, "namespace", "team", "uid", "uid-" + name, "resourceVersion", "7",
                        "labels", Map.of("app", name, "lakehouse.io/instance-kind", "catalog"),
                        "annotations", Map.of("note", "kept", CompactObject.LAST_APPLIED, "{\"data\":{}}"),
                        "ownerReferences", List.of(Map.of("kind", "Catalog", "name", name, "uid", "u-" + name)),
                        "managedFields", List.of(Map.of("manager", "kubectl"))),
                "data", Map.of("application.properties", ("polaris.realm-context.realms=" + name
                        + "\npolaris.persistence.type=relational-jdbc\nquarkus.datasource.jdbc.url=jdbc:postgresql://"
                        + name + "-db-rw:5432/app\n").repeat(4), "v", value),
                "status", Map.of("phase", "whatever")));
    }

    private static String random(int length) {
        StringBuilder s = new StringBuilder();
        Random r = new Random(length * 31L + System.nanoTime());
        while (s.length() < length) {
            s.append(Long.toString(r.nextLong(), 36));
        }
        return s.substring(0, length);
    }
}
