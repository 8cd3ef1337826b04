package io.lakehouse.notebooks.kinds.jupyterhub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Python literals of plain values and Kubernetes objects, for the generated configuration. Strings
 * are JSON string literals, which Python reads the same way (escapes included), so no value from a
 * form can end a string early and inject code.
 */
final class PythonLiterals {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private PythonLiterals() {}

    static String string(String value) {
        return of(TextNode.valueOf(value));
    }

    /** A Kubernetes model object (EnvVar, Volume...) as the dict KubeSpawner accepts. */
    static String object(Object model) {
        return of(SERIALIZATION.convertValue(model, JsonNode.class));
    }

    static String list(List<?> values) {
        var array = JsonNodeFactory.instance.arrayNode();
        values.forEach(v -> array.add(JSON.valueToTree(v)));
        return of(array);
    }

    static String map(Map<String, ?> values) {
        return of(JSON.valueToTree(values));
    }

    static String of(JsonNode node) {
        if (node == null || node.isNull()) {
            return "None";
        }
        if (node.isBoolean()) {
            return node.asBoolean() ? "True" : "False";
        }
        if (node.isNumber()) {
            return node.asText();
        }
        if (node.isTextual()) {
            try {
                return JSON.writeValueAsString(node.asText());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        List<String> parts = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(child -> parts.add(of(child)));
            return "[" + String.join(", ", parts) + "]";
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            parts.add(string(field.getKey()) + ": " + of(field.getValue()));
        }
        return "{" + String.join(", ", parts) + "}";
    }
}
