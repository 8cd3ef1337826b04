package io.lakehouse.common.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * One copy of the strings that repeat across the cached objects (P6: ≤ 15 KB per instance). Every object arrives
 * parsed from its own JSON, each string a new one: the seven label keys and most of their values (the instance's
 * name and uid in all its twelve objects), the annotation keys, the namespace, the owner reference, the status'
 * condition types, reasons, messages and timestamps. The JVM's string table keeps one of each (and forgets it once
 * no object holds it), so a compact copy shares them with every other.
 */
final class Interned {

    private static final Map<Object, WeakReference<Object>> SHARED = new WeakHashMap<>();

    private Interned() {}

    static String of(String s) {
        return s == null ? null : s.intern();
    }

    /** An immutable copy with interned keys and values. */
    static Map<String, String> map(Map<String, String> m) {
        if (m == null) {
            return null;
        }
        Map<String, String> interned = new HashMap<>(m.size() * 2);
        m.forEach((k, v) -> interned.put(of(k), of(v)));
        return Map.copyOf(interned);
    }

    /**
     * The one copy of an immutable value that equals {@code value} (this one if none is held yet), weakly held: gone
     * once no cached object uses it. Worth it for values many objects repeat whole, such as the owner references an
     * instance's objects share (about 80 bytes of bookkeeping per distinct value).
     */
    @SuppressWarnings("unchecked")
    static synchronized <T> T shared(T value) {
        WeakReference<Object> held = SHARED.get(value);
        Object known = held == null ? null : held.get();
        if (known != null) {
            return (T) known;
        }
        SHARED.put(value, new WeakReference<>(value));
        return value;
    }

    /** A copy of the tree whose text values are interned (field names are already: Jackson interns them). */
    static JsonNode tree(JsonNode node) {
        if (node.isTextual()) {
            return TextNode.valueOf(of(node.textValue()));
        }
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            node.fields().forEachRemaining(f -> copy.set(f.getKey(), tree(f.getValue())));
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode(node.size());
            node.forEach(e -> copy.add(tree(e)));
            return copy;
        }
        return node;
    }
}
