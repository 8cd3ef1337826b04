package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The items of one informer, each complete until nothing needs more than its {@link CompactObject}: a
 * Secret or Job at once, any other object once the {@link Applier} saw it carry its desired state (or
 * left it alone: created only once). Any new version arrives complete again, so drift is compared on
 * the whole object; the same version listed again (a relist) keeps the compact copy.
 */
final class InformerCacheStore implements ItemStore<HasMetadata> {

    private final ConcurrentHashMap<String, HasMetadata> items = new ConcurrentHashMap<>();

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
        return old[0];
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
        return items.remove(key);
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

    private static boolean sameVersion(HasMetadata a, HasMetadata b) {
        return a.getMetadata().getResourceVersion() != null
                && Objects.equals(a.getMetadata().getResourceVersion(), b.getMetadata().getResourceVersion());
    }
}
