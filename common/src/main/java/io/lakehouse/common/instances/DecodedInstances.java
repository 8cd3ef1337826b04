package io.lakehouse.common.instances;

import java.util.Iterator;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The last decoded version of the instances the API read recently, so that a read of an unchanged row
 * does not parse its JSON columns again (spec, conditions: most of a read's allocation and CPU). A row
 * version is its {@code uid} plus PostgreSQL's {@code xmin}: every UPDATE writes a new row version with
 * a new {@code xmin}, whatever column it changed and whoever wrote it (another replica included), so a
 * hit is the row as stored, never a stale one. Bounded: past {@link #MAX} entries an arbitrary one is
 * dropped (a miss only costs the decode), so its memory does not grow with the number of instances.
 */
public final class DecodedInstances {

    /** The API's hot set (the pages and instances users look at), ~2 KB each: ~1 MB at most. */
    static final int MAX = 512;

    private record Entry(UUID uid, String version, Instance instance) {}

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    /** The instance of that row version: the remembered one, or {@code decode}'s (then remembered). */
    public Instance get(String namespace, String name, UUID uid, String version, Supplier<Instance> decode) {
        String key = namespace + '/' + name;
        Entry known = entries.get(key);
        if (known != null && known.uid().equals(uid) && known.version().equals(version)) {
            return known.instance();
        }
        Instance decoded = decode.get();
        if (entries.size() >= MAX && known == null) {
            evictOne();
        }
        entries.put(key, new Entry(uid, version, decoded));
        return decoded;
    }

    private void evictOne() {
        Iterator<String> keys = entries.keySet().iterator();
        if (keys.hasNext()) {
            entries.remove(keys.next());
        }
    }
}
