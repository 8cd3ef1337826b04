package io.lakehouse.common.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.AnnotationKeyword;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.oas.OpenApi30;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/**
 * The JSON Schema set-up shared by {@link CrdSchemas} and {@link OpenApiSchemas}: the OpenAPI 3.0
 * dialect (draft 4 keywords plus {@code nullable}, {@code discriminator}, {@code example}...), every
 * unknown keyword ({@code x-kubernetes-*}, {@code x-polaris-*}) kept as a silent annotation.
 */
public final class SchemaSupport {

    private static final JsonMetaSchema DIALECT = JsonMetaSchema.builder(OpenApi30.getInstance())
            .unknownKeywordFactory((keyword, context) -> new AnnotationKeyword(keyword))
            .build();
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.builder()
            .defaultMetaSchemaIri(DIALECT.getIri())
            .metaSchema(DIALECT)
            .build();
    private static final SchemaValidatorsConfig CONFIG = SchemaValidatorsConfig.builder()
            .nullableKeywordEnabled(true)
            .typeLoose(false)
            .pathType(PathType.LEGACY)
            .build();
    private static final KubernetesSerialization KUBERNETES = new KubernetesSerialization();
    public static final ObjectMapper JSON = new ObjectMapper();
    static final YAMLMapper YAML = new YAMLMapper();

    private SchemaSupport() {}

    static JsonNode readYamlOrJson(Path file) {
        try {
            return YAML.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
        }
    }

    static JsonSchema compile(String iri, JsonNode schema) {
        return FACTORY.getSchema(SchemaLocation.of(iri), schema, CONFIG);
    }

    /** Kubernetes objects through fabric8's serialization; JSON text parsed; a JsonNode as it is. */
    public static JsonNode toJson(Object value) {
        if (value instanceof JsonNode node) {
            return node;
        }
        if (value instanceof String text) {
            try {
                return JSON.readTree(text);
            } catch (IOException e) {
                throw new IllegalArgumentException("not JSON: " + text, e);
            }
        }
        return KUBERNETES.convertValue(value, JsonNode.class);
    }

    /** Messages sorted by instance location, e.g. {@code $.spec.instances: string found, integer expected}. */
    static List<String> messages(java.util.Set<ValidationMessage> errors) {
        return errors.stream()
                .sorted(Comparator.comparing((ValidationMessage m) -> m.getInstanceLocation().toString())
                        .thenComparing(ValidationMessage::getMessage))
                .map(ValidationMessage::getMessage)
                .distinct()
                .toList();
    }

    static void assertEmpty(String what, List<String> errors) {
        if (!errors.isEmpty()) {
            throw new AssertionError(what + " is invalid:\n  " + String.join("\n  ", errors));
        }
    }
}
