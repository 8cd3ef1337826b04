package io.lakehouse.common.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Golden files of generated objects: multi-document YAML under {@code src/test/resources/golden},
 * written with {@code -Dgolden.update=true}, compared as trees (map order never matters) and shown as
 * key-sorted YAML when they differ.
 */
public final class GoldenYaml {

    public static final Path DIR = Path.of("src", "test", "resources", "golden");
    public static final String UPDATE_PROPERTY = "golden.update";

    /** fabric8's serialization (so objects look as the API server receives them), map keys sorted. */
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization(
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true), false);
    private static final YAMLMapper YAML = new YAMLMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .build());

    private GoldenYaml() {}

    /**
     * Compares objects with their golden file (label by label, then each as key-sorted YAML); with
     * {@code -Dgolden.update=true}, rewrites the file first.
     */
    public static void assertGolden(String name, String header, List<JsonNode> actual) {
        Path file = DIR.resolve(name + ".yaml");
        if (updating()) {
            write(file, header + "\nGenerated with -D" + UPDATE_PROPERTY + "=true: review every diff before committing.",
                    actual);
        }
        assertThat(file).as("golden file missing: run with -D%s=true", UPDATE_PROPERTY).exists();
        List<JsonNode> golden = read(file);
        assertThat(actual.stream().map(GoldenYaml::label))
                .as("objects of %s (regenerate with -D%s=true if intended)", name, UPDATE_PROPERTY)
                .containsExactlyElementsOf(golden.stream().map(GoldenYaml::label).toList());
        for (int i = 0; i < actual.size(); i++) {
            assertThat(canonical(actual.get(i)))
                    .as("%s in %s (regenerate with -D%s=true if intended)", label(actual.get(i)), file, UPDATE_PROPERTY)
                    .isEqualTo(canonical(golden.get(i)));
        }
    }

    public static boolean updating() {
        return Boolean.getBoolean(UPDATE_PROPERTY);
    }

    public static JsonNode tree(HasMetadata object) {
        return SERIALIZATION.convertValue(object, JsonNode.class);
    }

    public static List<JsonNode> trees(List<HasMetadata> objects) {
        return objects.stream().map(GoldenYaml::tree).toList();
    }

    public static void write(Path file, String header, List<JsonNode> documents) {
        StringBuilder out = new StringBuilder();
        header.lines().forEach(line -> out.append("# ").append(line).append('\n'));
        for (JsonNode doc : documents) {
            out.append("---\n").append(yaml(doc));
        }
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, out.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<JsonNode> read(Path file) {
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(Files.readString(file))) {
            List<JsonNode> result = new ArrayList<>();
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                if (doc != null && !doc.isMissingNode() && !doc.isNull()) {
                    result.add(doc);
                }
            }
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read golden file " + file.toAbsolutePath(), e);
        }
    }

    public static String yaml(JsonNode doc) {
        try {
            return YAML.writeValueAsString(doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every object key sorted, so two equal trees print the same. */
    public static String canonical(JsonNode doc) {
        return yaml(sorted(doc));
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            Map<String, JsonNode> fields = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                fields.put(f.getKey(), sorted(f.getValue()));
            }
            ObjectNode out = YAML.createObjectNode();
            fields.forEach(out::set);
            return out;
        }
        if (node.isArray()) {
            var out = YAML.createArrayNode();
            node.forEach(child -> out.add(sorted(child)));
            return out;
        }
        return node;
    }

    public static String label(JsonNode doc) {
        return doc.path("kind").asText() + "/" + doc.path("metadata").path("name").asText();
    }
}
