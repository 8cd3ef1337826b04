package io.lakehouse.common.instances;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.validation.Violations;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A JSON merge patch (RFC 7386) on an instance's spec: fields fixed at creation may only repeat their
 * current value (clients often send the whole spec back); {@code null} resets a capacity field to its
 * default; unknown fields are a 400.
 */
public final class SpecPatch {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
    private static final Set<String> FIXED_TOP = Set.of("name", "namespace", "kind");

    private SpecPatch() {}

    public static InstanceSpec apply(InstanceKind<?> kind, InstanceSpec current, JsonNode patch) {
        if (patch == null || !patch.isObject()) {
            throw ApiException.badRequest("a merge patch must be a JSON object");
        }
        Violations v = new Violations();
        for (Iterator<String> it = patch.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (FIXED_TOP.contains(field)) {
                v.add(field, "is fixed at creation");
            } else if (!"spec".equals(field)) {
                throw ApiException.badRequest("unknown field '" + field + "': only spec can be patched");
            }
        }
        JsonNode changes = patch.path("spec");
        if (!changes.isMissingNode() && !changes.isObject()) {
            throw ApiException.badRequest("spec must be a JSON object");
        }
        ObjectNode before = JSON.valueToTree(current);
        JsonNode after = changes.isMissingNode() ? before : merge(before.deepCopy(), changes);
        for (String fixed : kind.fixedFields()) {
            if (!before.path(fixed).equals(after.path(fixed))) {
                v.add("spec." + fixed, "is fixed at creation; create a new instance to change it");
            }
        }
        InstanceSpec next = kind.withDefaults(read(kind, after), Optional.empty());
        kind.checkCapacity(v, next);
        kind.checkChange(v, current, next);
        v.throwIfAny();
        return next;
    }

    /** Reads a spec, refusing unknown fields and wrong types with a 400 that names the field. */
    public static InstanceSpec read(InstanceKind<?> kind, JsonNode spec) {
        try {
            return JSON.treeToValue(spec, kind.specType());
        } catch (UnrecognizedPropertyException e) {
            throw ApiException.badRequest("unknown field 'spec." + path(e) + "'");
        } catch (JsonProcessingException | IllegalArgumentException e) {
            String where = e instanceof JsonMappingException m && !m.getPath().isEmpty()
                    ? "spec." + path(m) : "spec";
            throw ApiException.badRequest(where + " has a value of the wrong type");
        }
    }

    private static String path(JsonMappingException e) {
        StringBuilder out = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                out.append(out.isEmpty() ? "" : ".").append(ref.getFieldName());
            } else {
                out.append('[').append(ref.getIndex()).append(']');
            }
        }
        return out.toString();
    }

    private static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode result = target != null && target.isObject() ? (ObjectNode) target : JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (f.getValue().isNull()) {
                result.remove(f.getKey());
            } else {
                result.set(f.getKey(), merge(result.get(f.getKey()), f.getValue()));
            }
        }
        return result;
    }
}
