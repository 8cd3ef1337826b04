package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Drops the empty maps and lists that every fabric8 model object allocates (its {@code additionalProperties}, a
 * ConfigMap's or Secret's {@code data}: a LinkedHashMap of 56 bytes each, in each compact copy, its spec, its status
 * and each condition, ≈ 40 per catalog, P6). A compact copy is never written to, so the immutable empty map or list
 * takes its place; an empty one in a field declared with a concrete type (a {@code LinkedHashMap} field cannot hold
 * {@code Map.of()}) stays. {@code additionalProperties} that hold something (a generic resource's status:
 * CloudNativePG's Cluster) become immutable maps and lists all the way down, without their nulls: ≈ 500 bytes less
 * per catalog than Jackson's LinkedHashMaps.
 */
final class NoExtras {

    /** The reference fields of a model class and its superclasses, made accessible. */
    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if ((f.getModifiers() & (Modifier.STATIC | Modifier.FINAL)) == 0 && !f.getType().isPrimitive()) {
                        f.setAccessible(true);
                        fields.add(f);
                    }
                }
            }
            return fields;
        }
    };

    private static final Map<?, ?> EMPTY_MAP = Map.of();
    private static final List<?> EMPTY_LIST = List.of();

    private NoExtras() {}

    /** Replaces the empty maps and lists of {@code o} and of the model objects it holds (in fields and lists). */
    static <T> T strip(T o) {
        if (o instanceof KubernetesResource) {
            try {
                for (Field f : FIELDS.get(o.getClass())) {
                    Object value = f.get(o);
                    if (value instanceof Map<?, ?> m && m.isEmpty()) {
                        replaceIfItFits(f, o, EMPTY_MAP);
                    } else if (value instanceof Map<?, ?> m && "additionalProperties".equals(f.getName())) {
                        replaceIfItFits(f, o, frozen(m));
                    } else if (value instanceof List<?> list && list.isEmpty()) {
                        replaceIfItFits(f, o, EMPTY_LIST);
                    } else if (value instanceof List<?> list) {
                        list.forEach(NoExtras::strip);
                    } else {
                        strip(value);
                    }
                }
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e); // accessible since computeValue
            }
        }
        return o;
    }

    /** An immutable copy of a JSON value (maps, lists, scalars), nulls left out. */
    private static Object frozen(Object value) {
        if (value instanceof Map<?, ?> m) {
            Map<Object, Object> copy = new HashMap<>();
            m.forEach((k, v) -> {
                if (k != null && v != null) {
                    copy.put(k, frozen(v));
                }
            });
            return Map.copyOf(copy);
        }
        if (value instanceof List<?> list) {
            return list.stream().filter(Objects::nonNull).map(NoExtras::frozen).toList();
        }
        return value;
    }

    private static void replaceIfItFits(Field f, Object o, Object empty) throws IllegalAccessException {
        if (f.getType().isInstance(empty)) {
            f.set(o, empty);
        }
    }
}
