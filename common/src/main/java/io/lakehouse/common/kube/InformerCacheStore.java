package io.lakehouse.common.kube;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The items of one informer, each kept as its {@link CompactObject} from the moment it arrives. A version that a pass
 * may still compare with its desired state (anything but a Secret or a Job) also keeps its whole JSON, deflated
 * ({@link WholeJson}), until the {@link Applier} compared it ({@link #verified}); a new version arrives whole again,
 * so drift is compared on the whole object, unless all a comparison reads of it is what the verified version before it
 * had (a status update: it stays verified); the same version listed again (a relist) keeps what the cache had. The
 * keys are also indexed by the instance their labels name, so that finding one instance's objects costs the same with
 * ten or ten thousand instances in the cache (P6).
 */
final class InformerCacheStore implements ItemStore<HasMetadata> {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    /** Items of one kind whose compared digest is kept ({@link #comparedDigests}). */
    private static final int DIGESTS = 2048;

    private final ConcurrentHashMap<String, HasMetadata> items = new ConcurrentHashMap<>();
    /** The whole JSON of the items no pass compared yet, by key (see {@link WholeJson}). */
    private final ConcurrentHashMap<String, WholeJson> unverified = new ConcurrentHashMap<>();
    /**
     * The {@link WholeJson#digest} of the latest version of the most recently arrived items (not ConfigMaps), by key:
     * a newer version with the same digest as a verified one differs only in its status, and stays verified. Bounded
     * (the objects of a burst of new instances converging, ≈ 100 bytes each) rather than one per cached object (P6):
     * an item whose digest went is compared once more after its next status update, as before.
     */
    private final Map<String, String> comparedDigests = Collections.synchronizedMap(
            new LinkedHashMap<>(256, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
                    return size() > DIGESTS;
                }
            });
    /** What this informer's whole JSONs are deflated against. */
    private final DeflateDictionary dictionary = new DeflateDictionary();
    /**
     * Keys of the items by {@link #owner}: one key as such, or a {@code String[]} of several (a few bytes per
     * instance and kind, P6). Written by the informer's thread only.
     */
    private final ConcurrentHashMap<String, Object> byOwner = new ConcurrentHashMap<>();
    /** Whether this version of an object is the one this process created (from a desired state it stamped). */
    private final Predicate<HasMetadata> createdHere;

    InformerCacheStore() {
        this(o -> false);
    }

    InformerCacheStore(Predicate<HasMetadata> createdHere) {
        this.createdHere = createdHere;
    }

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
            if (current != null && sameVersion(current, object)) {
                return current;
            }
            if (CompactObject.neverComparedWhole(object)) {
                unverified.remove(key);
                return CompactObject.of(object, "");
            }
            JsonNode tree = SERIALIZATION.convertValue(object, JsonNode.class);
            byte[] json = WholeJson.compared(tree);
            String carried = carried(object, current, sameComparedJsonAsBefore(key, object, json));
            if (carried.isEmpty()) {
                unverified.put(key, WholeJson.of(object.getMetadata().getResourceVersion(), json, dictionary,
                        shape(object)));
            } else {
                unverified.remove(key);
            }
            return CompactObject.of(object, carried, tree);
        });
        if (old[0] != null) {
            unindex(key, old[0]);
        }
        index(key, object);
        return old[0];
    }

    /**
     * Whether this version's compared JSON is the same as the version before it of this key (remembered: its digest).
     * ConfigMaps are not remembered: they have no status, so no version of theirs changes in its status alone.
     */
    private boolean sameComparedJsonAsBefore(String key, HasMetadata object, byte[] comparedJson) {
        if (object instanceof ConfigMap) {
            return false;
        }
        String digest = WholeJson.digest(comparedJson);
        return digest.equals(comparedDigests.put(key, digest));
    }

    /**
     * The checksum of the desired state a new version is known to carry without a comparison, or "": the echo of our
     * create carries the one it was stamped with; a version whose compared JSON is the same as the verified one before
     * it (a controller wrote only its status) carries that one's. Each status update of a Deployment or a database
     * Cluster otherwise kept its whole JSON until a pass compared it again with the same desired state.
     */
    private String carried(HasMetadata object, HasMetadata current, boolean sameComparedJson) {
        if (createdHere.test(object)) {
            return stamped(object);
        }
        return current != null && sameComparedJson ? CompactObject.verifiedChecksum(current) : "";
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
     * The whole JSON tree of this version of an item, if no pass compared it yet ({@link #verified}); else null (read
     * it from the API server).
     */
    JsonNode wholeTree(HasMetadata live) {
        WholeJson whole = unverified.get(getKey(live));
        return whole != null && Objects.equals(whole.resourceVersion(), live.getMetadata().getResourceVersion())
                ? whole.tree() : null;
    }

    /**
     * A pass compared this version of the item: it carries the desired state of checksum {@code verified} ("" when
     * its content is never compared, created once). Its whole JSON goes, and its compact copy records the checksum.
     * A newer version that arrived meanwhile is left as it is.
     */
    void verified(HasMetadata live, String verified) {
        String key = getKey(live);
        unverified.computeIfPresent(key, (k, whole) ->
                Objects.equals(whole.resourceVersion(), live.getMetadata().getResourceVersion()) ? null : whole);
        if (!verified.isEmpty()) {
            items.computeIfPresent(key, (k, current) -> sameVersion(current, live)
                    && !CompactObject.verifies(current, verified) ? CompactObject.of(current, verified) : current);
        }
    }

    /**
     * This version of the item is the one this process created (told after the watch delivered it): it carries the
     * desired state it was stamped with.
     */
    void verifiedAsCreated(HasMetadata created) {
        if (!CompactObject.neverComparedWhole(created)) {
            verified(created, stamped(created));
        }
    }

    @Override
    public HasMetadata remove(String key) {
        HasMetadata removed = items.remove(key);
        unverified.remove(key);
        comparedDigests.remove(key);
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

    /**
     * What tells apart the objects of one kind that differ in more than names ({@link DeflateDictionary}): the kind of
     * their instance and their name without the instance's (a catalog's {@code -config} and {@code -db-config}
     * ConfigMaps).
     */
    private static String shape(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        String instance = labels == null ? null : labels.get(Labels.INSTANCE);
        String name = object.getMetadata().getName();
        return instance == null || name == null ? ""
                : labels.get(Labels.INSTANCE_KIND) + ":" + name.replace(instance, "");
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

    /** The desired-state checksum an object was stamped with when written ({@link Applier}), or "". */
    private static String stamped(HasMetadata object) {
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        String checksum = annotations == null ? null : annotations.get(Labels.CHECKSUM);
        return checksum == null ? "" : checksum;
    }

    private static boolean sameVersion(HasMetadata a, HasMetadata b) {
        return a.getMetadata().getResourceVersion() != null
                && Objects.equals(a.getMetadata().getResourceVersion(), b.getMetadata().getResourceVersion());
    }
}
