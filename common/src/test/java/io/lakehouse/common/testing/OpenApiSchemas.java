package io.lakehouse.common.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.ValidationMessage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Validates request bodies against the {@code components.schemas} of an OpenAPI 3.0 document (e.g.
 * Polaris' management API), resolving {@code #/components/schemas/...} references in the document.
 *
 * <p>OpenAPI's {@code discriminator} with a {@code mapping} is made to validate: JSON Schema alone
 * would check a {@code GrantResource} only for its {@code type}, never the {@code privilege} of the
 * {@code CatalogGrant} it maps to. Each base schema {@code B} with a mapping is rewritten to "B's own
 * keywords, and for each mapping entry: if the discriminator is that value, then that subtype" (draft 4
 * has no if/then: {@code anyOf: [not(value), subtype]}), the subtypes' {@code allOf: [B]} pointing to
 * B's own keywords (so there is no cycle). A value outside the mapping is left to B's own enum.
 *
 * <p>Unknown properties are allowed, as in the schema itself; {@link #declaredProperties(String)}
 * lists what a schema declares (through {@code $ref} and {@code allOf}) for tests that want to catch
 * misspelt fields.
 */
public final class OpenApiSchemas {

    private static final String PREFIX = "#/components/schemas/";
    private static final String BASE_SUFFIX = "__base";

    private final String iri;
    private final ObjectNode document;
    private final ObjectNode original;
    private final Map<String, JsonSchema> compiled = new ConcurrentHashMap<>();
    /** Where the "discriminator is not v" half of each implication fails: not a problem to report. */
    private final Set<String> implicationHeads = new LinkedHashSet<>();

    private OpenApiSchemas(String iri, ObjectNode original) {
        this.iri = iri;
        this.original = original;
        this.document = original.deepCopy();
        dispatchDiscriminators((ObjectNode) document.path("components").path("schemas"));
    }

    public static OpenApiSchemas load(Path openApiFile) {
        JsonNode doc = SchemaSupport.readYamlOrJson(openApiFile);
        if (!doc.path("components").path("schemas").isObject()) {
            throw new IllegalArgumentException(openApiFile + " has no components.schemas");
        }
        return new OpenApiSchemas("urn:lakehouse:openapi:" + openApiFile.getFileName(), (ObjectNode) doc);
    }

    /** Every problem of the body (an object, a JsonNode or JSON text) against one schema; empty when valid. */
    public List<String> validate(String schemaName, Object body) {
        Set<ValidationMessage> errors = new LinkedHashSet<>(schema(schemaName).validate(SchemaSupport.toJson(body)));
        errors.removeIf(m -> "not".equals(m.getType())
                && implicationHeads.stream().anyMatch(head -> m.getSchemaLocation().toString().endsWith(head)));
        return SchemaSupport.messages(errors);
    }

    public void assertValid(String schemaName, Object body) {
        SchemaSupport.assertEmpty(schemaName, validate(schemaName, body));
    }

    /** The schema as written in the document (before the discriminator rewrite). */
    public JsonNode schemaNode(String schemaName) {
        JsonNode node = original.path("components").path("schemas").path(schemaName);
        if (node.isMissingNode()) {
            throw new IllegalArgumentException("no schema " + schemaName);
        }
        return node;
    }

    /** Property names a schema declares, its own and those of its {@code allOf} parts and references. */
    public Set<String> declaredProperties(String schemaName) {
        Set<String> names = new LinkedHashSet<>();
        collect(schemaNode(schemaName), names, new LinkedHashSet<>());
        return names;
    }

    private void collect(JsonNode schema, Set<String> names, Set<String> seen) {
        String ref = schema.path("$ref").asText(null);
        if (ref != null) {
            if (seen.add(ref)) {
                collect(schemaNode(nameOf(ref)), names, seen);
            }
            return;
        }
        schema.path("properties").fieldNames().forEachRemaining(names::add);
        schema.path("allOf").forEach(part -> collect(part, names, seen));
    }

    private JsonSchema schema(String schemaName) {
        schemaNode(schemaName);
        return compiled.computeIfAbsent(schemaName, name -> {
            ObjectNode root = SchemaSupport.JSON.createObjectNode();
            root.put("$ref", PREFIX + name);
            root.set("components", document.path("components"));
            return SchemaSupport.compile(iri + ":" + name, root);
        });
    }

    private void dispatchDiscriminators(ObjectNode schemas) {
        List<String> bases = new ArrayList<>();
        schemas.fields().forEachRemaining(e -> {
            if (e.getValue().path("discriminator").path("mapping").isObject()) {
                bases.add(e.getKey());
            }
        });
        for (String base : bases) {
            ObjectNode original = (ObjectNode) schemas.get(base);
            JsonNode discriminator = original.get("discriminator");
            String property = discriminator.path("propertyName").asText();
            ObjectNode own = original.deepCopy();
            own.remove("discriminator");
            schemas.set(base + BASE_SUFFIX, own);

            // "if the discriminator says v, then the subtype of v", one implication per mapping entry
            ArrayNode implications = SchemaSupport.JSON.createArrayNode();
            int i = 0;
            for (Iterator<Map.Entry<String, JsonNode>> it = discriminator.path("mapping").fields(); it.hasNext(); i++) {
                Map.Entry<String, JsonNode> m = it.next();
                String subtype = nameOf(m.getValue().asText());
                pointParentsToOwnKeywords(schemas.path(subtype), base);
                pointParentsToOwnKeywords(schemas.path(subtype + BASE_SUFFIX), base);
                ArrayNode either = implications.addObject().putArray("anyOf");
                ObjectNode notThisValue = either.addObject().putObject("not");
                notThisValue.putObject("properties").putObject(property).putArray("enum").add(m.getKey());
                notThisValue.putArray("required").add(property);
                either.addObject().put("$ref", PREFIX + subtype);
                implicationHeads.add("#/components/schemas/" + base + "/allOf/1/allOf/" + i + "/anyOf/0/not");
            }
            ObjectNode dispatching = SchemaSupport.JSON.createObjectNode();
            if (original.has("description")) {
                dispatching.set("description", original.get("description"));
            }
            ArrayNode allOf = dispatching.putArray("allOf");
            allOf.addObject().put("$ref", PREFIX + base + BASE_SUFFIX);
            allOf.addObject().set("allOf", implications);
            schemas.set(base, dispatching);
        }
    }

    /** A subtype's {@code allOf: [{$ref: base}]} now names the base's own keywords. */
    private static void pointParentsToOwnKeywords(JsonNode subtype, String base) {
        for (JsonNode part : subtype.path("allOf")) {
            if (part instanceof ObjectNode ref && (PREFIX + base).equals(ref.path("$ref").asText())) {
                ref.put("$ref", PREFIX + base + BASE_SUFFIX);
            }
        }
    }

    private static String nameOf(String ref) {
        if (!ref.startsWith(PREFIX)) {
            throw new IllegalArgumentException("only local component references are supported: " + ref);
        }
        return ref.substring(PREFIX.length());
    }
}
