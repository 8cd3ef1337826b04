package io.lakehouse.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rendered manifests read as an API server with {@code fieldValidation=Strict} would: each document
 * deserialized into its fabric8 model (by apiVersion and kind), and every field that the model does not
 * know (fabric8 keeps those in {@code additionalProperties} instead of failing) reported with its path.
 */
final class StrictManifests {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private StrictManifests() {
    }

    /** The non-empty documents of a multi-document YAML stream. */
    static List<JsonNode> documents(String yaml) {
        List<JsonNode> docs = new ArrayList<>();
        try (YAMLParser parser = new YAMLFactory().createParser(yaml)) {
            for (JsonNode doc : YAML.readValues(parser, JsonNode.class).readAll()) {
                if (doc != null && !doc.isNull() && !doc.isEmpty()) {
                    docs.add(doc);
                }
            }
        } catch (IOException e) {
            throw new AssertionError("not YAML: " + e.getMessage(), e);
        }
        return docs;
    }

    /** A built-in kind's typed model; {@link GenericKubernetesResource} for a custom resource. */
    static HasMetadata parse(JsonNode doc) {
        return Serialization.unmarshal(doc.toString(), HasMetadata.class);
    }

    /** "Kind/name: path" of every field of the document its API model does not know; empty when none. */
    static List<String> unknownFields(JsonNode doc) {
        HasMetadata typed = parse(doc);
        String where = doc.path("kind").asText() + "/" + doc.path("metadata").path("name").asText();
        if (typed instanceof GenericKubernetesResource) {
            return List.of(where + ": not a built-in kind (validate it against its CRD)");
        }
        List<String> problems = new ArrayList<>();
        walk(typed, "", problems, new IdentityHashMap<>());
        return problems.stream().map(p -> where + ": unknown field " + p).toList();
    }

    private static void walk(Object node, String path, List<String> problems, Map<Object, Boolean> seen) {
        if (node == null || seen.put(node, Boolean.TRUE) != null) {
            return;
        }
        if (node instanceof Collection<?> c) {
            int i = 0;
            for (Object o : c) {
                walk(o, path + "[" + i++ + "]", problems, seen);
            }
            return;
        }
        if (node instanceof Map<?, ?> m) {
            m.forEach((k, v) -> walk(v, path + "." + k, problems, seen));
            return;
        }
        if (!node.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (Method getter : node.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
                    || !(getter.getName().startsWith("get") || getter.getName().startsWith("is"))
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object value = invoke(getter, node);
            if (getter.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra) {
                    extra.keySet().forEach(k -> problems.add(path.isEmpty() ? String.valueOf(k) : path.substring(1) + "." + k));
                }
            } else {
                walk(value, path + "." + property(getter.getName()), problems, seen);
            }
        }
    }

    private static Object invoke(Method getter, Object target) {
        try {
            return getter.invoke(target);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(getter + ": " + e.getMessage(), e);
        }
    }

    private static String property(String getter) {
        String bare = getter.startsWith("is") ? getter.substring(2) : getter.substring(3);
        return Character.toLowerCase(bare.charAt(0)) + bare.substring(1);
    }
}
