package io.lakehouse.catalog.domain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakehouse.common.instances.SpecPatch;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.validation.Quantities;
import io.lakehouse.common.validation.Violations;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * A JSON merge patch (RFC 7386) on an instance: only capacity may change. A fixed field sent with
 * its current value is accepted (clients often send the whole spec back); a different value is 422.
 */
public final class CatalogPatch {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Spec fields fixed at creation. */
    public static final Set<String> FIXED_SPEC = Set.of("storage", "catalogName", "realm");

    private CatalogPatch() {}

    public static CatalogSpec apply(CatalogSpec current, JsonNode patch) {
        Violations v = new Violations();
        SpecPatch.checkTop(v, patch);
        JsonNode currentJson = JSON.valueToTree(current);
        JsonNode spec = patch.path("spec");
        ResourcesSpec resources = current.resources();
        DatabaseSpec database = current.database();
        if (!spec.isMissingNode()) {
            if (!spec.isObject()) {
                throw ApiException.badRequest("spec must be a JSON object");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = spec.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                String field = f.getKey();
                if (FIXED_SPEC.contains(field)) {
                    if (!sameAs(f.getValue(), currentJson.path(field))) {
                        v.add("spec." + field, "is fixed at creation; create a new instance to change it");
                    }
                } else if ("resources".equals(field)) {
                    resources = new ResourcesSpec(
                            text(f.getValue(), "resources", "memory", resources.memory(), CatalogSpec.DEFAULT_MEMORY),
                            text(f.getValue(), "resources", "cpu", resources.cpu(), CatalogSpec.DEFAULT_CPU));
                    checkOnly(f.getValue(), "resources", Set.of("memory", "cpu"));
                } else if ("database".equals(field)) {
                    checkOnly(f.getValue(), "database", Set.of("storageSize"));
                    database = new DatabaseSpec(text(f.getValue(), "database", "storageSize", database.storageSize(),
                            CatalogSpec.DEFAULT_STORAGE_SIZE));
                } else {
                    throw ApiException.badRequest("unknown field 'spec." + field + "'");
                }
            }
        }
        CatalogSpec next = current.withCapacity(resources, database);
        CatalogRules.checkCapacity(v, next);
        if (!v.has("spec.database.storageSize")) {
            Quantities.checkGrowth(v, "spec.database.storageSize", current.database().storageSize(),
                    database.storageSize());
        }
        v.throwIfAny();
        return next;
    }

    /** Every field the patch gives equals the current value (recursively). */
    private static boolean sameAs(JsonNode patched, JsonNode current) {
        if (patched.isObject() && current.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = patched.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                if (!sameAs(f.getValue(), current.path(f.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        return patched.equals(current);
    }

    private static void checkOnly(JsonNode node, String parent, Set<String> allowed) {
        if (node.isNull()) {
            return;
        }
        if (!node.isObject()) {
            throw ApiException.badRequest("spec." + parent + " must be a JSON object");
        }
        node.fieldNames().forEachRemaining(name -> {
            if (!allowed.contains(name)) {
                throw ApiException.badRequest("unknown field 'spec." + parent + "." + name + "'");
            }
        });
    }

    /** The patched value: absent keeps the current one, null resets to the default. */
    private static String text(JsonNode parent, String parentName, String field, String current, String dflt) {
        if (parent.isNull()) {
            return dflt;
        }
        JsonNode value = parent.path(field);
        if (value.isMissingNode()) {
            return current;
        }
        if (value.isNull()) {
            return dflt;
        }
        if (!value.isTextual() && !value.isNumber()) {
            throw ApiException.badRequest("spec." + parentName + "." + field + " must be a string");
        }
        return value.asText();
    }
}
