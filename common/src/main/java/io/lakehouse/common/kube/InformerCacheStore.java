package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
    /** Keys of the items by {@link #owner}; an item without the instance labels is not in it. */
    private final ConcurrentHashMap<String, Set<String>> byOwner = new ConcurrentHashMap<>();

    @Override
    public String getKey(HasMetadata object) {
        return Cache.metaNamespaceKeyFunc(object);
    }

    @Override
    public HasMetadata put(String key, HasMetadata object) {
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
        Set<String> keys = byOwner.get(owner(namespace, instanceKind, instance));
        return keys == null ? List.of() : keys.stream().map(items::get).filter(Objects::nonNull).toList();
    }

    /**
     * Replaces the stored item by the compact copy of {@code live} if it is still the same version
     * (a newer one may have arrived meanwhile: it stays complete).
     */
    void compact(HasMetadata live, String verified) {
        items.computeIfPresent(getKey(live), (k, current) -> sameVersion(current, live) && !CompactObject.isCompact(live)
                && (!CompactObject.isCompact(current) || !verified.isEmpty() && !CompactObject.verifies(current, verified))
                ? CompactObject.of(live, verified) : current);
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
            byOwner.computeIfAbsent(owner, o -> ConcurrentHashMap.newKeySet()).add(key);
        }
    }

    private void unindex(String key, HasMetadata object) {
        String owner = owner(object);
        if (owner != null) {
            byOwner.computeIfPresent(owner, (o, keys) -> {
                // Still held under this owner when the new version kept its labels.
                HasMetadata current = items.get(key);
                if (current == null || !owner.equals(owner(current))) {
                    keys.remove(key);
                }
                return keys.isEmpty() ? null : keys;
            });
        }
    }

    private static String owner(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        String instance = labels == null ? null : labels.get(Labels.INSTANCE);
        String kind = labels == null ? null : labels.get(Labels.INSTANCE_KIND);
        return instance == null || kind == null ? null : owner(object.getMetadata().getNamespace(), kind, instance);
    }

    private static String owner(String namespace, String instanceKind, String instance) {
        return namespace + "/" + instanceKind + "/" + instance;
    }

    private static boolean sameVersion(HasMetadata a, HasMetadata b) {
        return a.getMetadata().getResourceVersion() != null
                && Objects.equals(a.getMetadata().getResourceVersion(), b.getMetadata().getResourceVersion());
    }
}
