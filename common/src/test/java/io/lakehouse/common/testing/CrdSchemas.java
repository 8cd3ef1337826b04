package io.lakehouse.common.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Validates generated custom resources against the {@code openAPIV3Schema} of a CRD, as an API server
 * would before admission: types, required fields, enums, patterns, minimum... and, in strict mode (the
 * default), unknown fields, which a real server drops (or refuses with {@code fieldValidation=Strict},
 * kubectl's default) and the fabric8 mock keeps. Not covered: CEL rules ({@code x-kubernetes-validations})
 * and the operators' admission webhooks: assert those rules separately.
 *
 * <pre>{@code
 * CrdSchemas clusters = CrdSchemas.named("postgresql.cnpg.io_clusters.yaml");
 * clusters.assertValid(cluster);                  // throws AssertionError listing every problem
 * assertThat(clusters.validate(broken)).isNotEmpty();
 * }</pre>
 */
public final class CrdSchemas {

    /** System property giving the folder of the CRD files; tests run from a module folder otherwise. */
    public static final String DIR_PROPERTY = "lakehouse.crds.dir";

    private final String name;
    private final String version;
    private final JsonNode schema;
    private final JsonSchema validator;

    private CrdSchemas(String name, String version, JsonNode schema) {
        this.name = name;
        this.version = version;
        this.schema = schema;
        this.validator = SchemaSupport.compile("urn:lakehouse:crd:" + name + ":" + version, schema);
    }

    /** {@code -Dlakehouse.crds.dir}, else {@code ../deploy/crds} (a module of the root build). */
    public static Path crdsDir() {
        String configured = System.getProperty(DIR_PROPERTY);
        Path dir = configured != null && !configured.isBlank() ? Path.of(configured) : Path.of("..", "deploy", "crds");
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("no CRD folder at " + dir.toAbsolutePath() + " (set -D" + DIR_PROPERTY + ")");
        }
        return dir;
    }

    /** A CRD file of {@link #crdsDir()}, first version, strict. */
    public static CrdSchemas named(String fileName) {
        return load(crdsDir().resolve(fileName));
    }

    /** The first version of a CRD file ({@code spec.versions[0]}), strict. */
    public static CrdSchemas load(Path crdFile) {
        return load(crdFile, null);
    }

    /** One version of a CRD file (null: the first), strict. */
    public static CrdSchemas load(Path crdFile, String version) {
        JsonNode crd = SchemaSupport.readYamlOrJson(crdFile);
        if (!"CustomResourceDefinition".equals(crd.path("kind").asText())) {
            throw new IllegalArgumentException(crdFile + " is not a CustomResourceDefinition");
        }
        JsonNode chosen = null;
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (version == null || version.equals(v.path("name").asText())) {
                chosen = v;
                break;
            }
        }
        if (chosen == null) {
            throw new IllegalArgumentException(crdFile + " has no version " + version);
        }
        JsonNode openApi = chosen.path("schema").path("openAPIV3Schema");
        if (!openApi.isObject()) {
            throw new IllegalArgumentException(crdFile + " has no openAPIV3Schema for " + chosen.path("name"));
        }
        String name = crd.path("metadata").path("name").asText();
        return new CrdSchemas(name, chosen.path("name").asText(), closed(openApi.deepCopy()));
    }

    /** The same schema without the unknown-field check (what the JSON Schema alone says). */
    public CrdSchemas lenient() {
        return new CrdSchemas(name, version, open(schema.deepCopy()));
    }

    /** The CRD name, e.g. {@code clusters.postgresql.cnpg.io}. */
    public String name() {
        return name;
    }

    public String version() {
        return version;
    }

    /** The schema validated against (with {@code additionalProperties: false} added in strict mode). */
    public JsonNode schema() {
        return schema;
    }

    /** Every problem of the object (a fabric8 resource, a JsonNode or JSON text); empty when valid. */
    public List<String> validate(Object resource) {
        return SchemaSupport.messages(validator.validate(SchemaSupport.toJson(resource)));
    }

    public void assertValid(Object resource) {
        SchemaSupport.assertEmpty(name + "/" + version + " object", validate(resource));
    }

    /**
     * Closes every object schema that lists its properties and neither allows more
     * ({@code additionalProperties}) nor preserves unknown fields: structural schemas prune unknown
     * fields, so anything outside the listed properties would never reach the operator.
     */
    private static JsonNode closed(JsonNode schema) {
        walk(schema, true);
        return schema;
    }

    private static JsonNode open(JsonNode schema) {
        walk(schema, false);
        return schema;
    }

    private static final String MARK = "x-lakehouse-closed";

    private static void walk(JsonNode node, boolean close) {
        if (!(node instanceof ObjectNode schema)) {
            return;
        }
        if (close && schema.path("properties").isObject() && !schema.has("additionalProperties")
                && !schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
            schema.put("additionalProperties", false);
            schema.put(MARK, true);
        }
        if (!close && schema.path(MARK).asBoolean(false)) {
            schema.remove("additionalProperties");
            schema.remove(MARK);
        }
        schema.path("properties").forEach(child -> walk(child, close));
        JsonNode items = schema.path("items");
        if (items.isArray()) {
            items.forEach(child -> walk(child, close));
        } else {
            walk(items, close);
        }
        walk(schema.path("additionalProperties"), close);
        walk(schema.path("not"), close);
        for (String combinator : List.of("allOf", "anyOf", "oneOf")) {
            schema.path(combinator).forEach(child -> walk(child, close));
        }
    }
}
