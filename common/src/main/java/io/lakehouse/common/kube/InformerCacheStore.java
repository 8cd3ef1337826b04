package io.lakehouse.common.kube;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The items of one informer, each complete until nothing needs more than its {@link CompactObject}: a
 * Secret or Job at once, any other object once the {@link Applier} saw it carry its desired state (or
 * left it alone: created only once). Any new version arrives complete again, so drift is compared on
 * the whole object; the same version listed again (a relist) keeps the compact copy. The keys are also
 * indexed by the instance their labels name, so that finding one instance's objects costs the same with
 * ten or ten thousand instances in the cache (P6).
 */
final class InformerCacheStore implements ItemStore<HasMetadata> {

    private final ConcurrentHashMap<String, HasMetadata> items = new ConcurrentHashMap<>();
    /**
     * Keys of the items by {@link #owner}: one key as such, or a {@code String[]} of several (a few bytes per
     * instance and kind, P6). Written by the informer's thread only.
     */
    private final ConcurrentHashMap<String, Object> byOwner = new ConcurrentHashMap<>();

    @Override
    public String getKey(HasMetadata object) {
        return Cache.metaNamespaceKeyFunc(object);
    }

    @Override
    public HasMetadata put(String newKey, HasMetadata object) {
        String key = Interned.of(newKey); // the same namespace/name in the stores of other kinds (P6)
        HasMetadata[] old = new HasMetadata[1];
        items.compute(key, (k, current) -> {
            old[0] = current;
            if (current != null && CompactObject.isCompact(current) && sameVersion(current, object)) {
                return current;
            }
            return CompactObject.onArrival(object) ? CompactObject.of(object, "") : object;
        });
        if (old[0] != null) {
            unindex(key, old[0]);
        }
        index(key, object);
        return old[0];
    }

    /** The items labelled as objects of this instance (namespace, instance kind, instance name). */
    List<HasMetadata> ownedBy(String namespace, String instanceKind, String instance) {
        Object keys = byOwner.get(owner(namespace, instance));
        Stream<String> all = keys == null ? Stream.empty()
                : keys instanceof String[] several ? Arrays.stream(several) : Stream.of((String) keys);
        return all.map(items::get).filter(Objects::nonNull).filter(o -> isOf(o, instanceKind, instance)).toList();
    }

    /** Whether the object's labels name it as one of this instance's (instance kind and name). */
    static boolean isOf(HasMetadata object, String instanceKind, String instance) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels != null && instanceKind.equals(labels.get(Labels.INSTANCE_KIND))
                && instance.equals(labels.get(Labels.INSTANCE));
    }

    /**
     * Replaces the stored item by the compact copy of {@code live} if it is still the same version
     * (a newer one may have arrived meanwhile: it stays complete).
     */
    void compact(HasMetadata live, String verified) {
        compact(live, verified, null);
    }

    /** {@link #compact(HasMetadata, String)} from the live object's JSON tree when the caller has it (else null). */
    void compact(HasMetadata live, String verified, JsonNode liveTree) {
        items.computeIfPresent(getKey(live), (k, current) -> sameVersion(current, live) && !CompactObject.isCompact(live)
                && (!CompactObject.isCompact(current) || !verified.isEmpty() && !CompactObject.verifies(current, verified))
                ? CompactObject.of(live, verified, liveTree) : current);
    }

    @Override
    public HasMetadata remove(String key) {
        HasMetadata removed = items.remove(key);
        if (removed != null) {
            unindex(key, removed);
        }
        return removed;
    }

    @Override
    public Stream<String> keySet() {
        return items.keySet().stream();
    }

    @Override
    public Stream<HasMetadata> values() {
        return items.values().stream();
    }

    @Override
    public int size() {
        return items.size();
    }

    @Override
    public HasMetadata get(String key) {
        return items.get(key);
    }

    private void index(String key, HasMetadata object) {
        String owner = owner(object);
        if (owner != null) {
            byOwner.merge(Interned.of(owner), key, (held, added) -> with(held, key)); // one per instance, every kind
        }
    }

    private void unindex(String key, HasMetadata object) {
        String owner = owner(object);
        HasMetadata current = items.get(key);
        // Still held under this owner when the new version kept its labels.
        if (owner != null && (current == null || !owner.equals(owner(current)))) {
            byOwner.computeIfPresent(owner, (o, held) -> without(held, key));
        }
    }

    private static Object with(Object held, String key) {
        String[] keys = held instanceof String[] several ? several : new String[] {(String) held};
        if (Arrays.asList(keys).contains(key)) {
            return held;
        }
        String[] more = Arrays.copyOf(keys, keys.length + 1);
        more[keys.length] = key;
        return more;
    }

    /** The keys without {@code key}; null (no entry) when none is left. */
    private static Object without(Object held, String key) {
        if (!(held instanceof String[] several)) {
            return held.equals(key) ? null : held;
        }
        String[] left = Arrays.stream(several).filter(k -> !k.equals(key)).toArray(String[]::new);
        return left.length == 1 ? left[0] : left;
    }

    /** {@code namespace/instance}: an instance name is unique in its namespace across kinds (NameRegistry). */
    private static String owner(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        String instance = labels == null ? null : labels.get(Labels.INSTANCE);
        return instance == null || labels.get(Labels.INSTANCE_KIND) == null ? null
                : owner(object.getMetadata().getNamespace(), instance);
    }

    private static String owner(String namespace, String instance) {
        return namespace + "/" + instance;
    }

    private static boolean sameVersion(HasMetadata a, HasMetadata b) {
        return a.getMetadata().getResourceVersion() != null
                && Objects.equals(a.getMetadata().getResourceVersion(), b.getMetadata().getResourceVersion());
    }
}
