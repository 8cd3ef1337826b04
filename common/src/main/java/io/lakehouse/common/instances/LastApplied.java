package io.lakehouse.common.instances;

import io.lakehouse.common.kube.AppliedVersion;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the last complete apply of each recently reconciled instance left: the versions of the objects it wrote or
 * verified ({@link AppliedVersion}), and the fingerprint of what those objects were built from
 * ({@link PassInputs.Fingerprints#desired}). A pass with the same fingerprint whose objects are all still as that apply left them
 * would build the same objects and find each in place: it does not build or apply them and goes on to the progress
 * and status. That is the case of a new instance's second to fourth passes, each woken by a controller's status update
 * (the database ready, the server ready, a Job done), which built the server's Deployment and serialized and hashed
 * every object again. Kept in memory for the most recent instances only, the ones converging.
 */
final class LastApplied {

    /** Instances remembered: a burst of this many creations converging at once still finds its own. */
    private static final int CAPACITY = 1024;

    private record Entry(String inputs, List<AppliedVersion> versions) {}

    private final Map<String, Entry> entries = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
            return size() > CAPACITY;
        }
    };

    /** An apply of the instance's objects built from {@code inputs} completed, leaving them at these versions. */
    synchronized void record(String key, String inputs, List<AppliedVersion> versions) {
        if (inputs == null) {
            entries.remove(key);
        } else {
            entries.put(key, new Entry(inputs, List.copyOf(versions)));
        }
    }

    /** The versions the last apply built from these same inputs left, or null (none remembered, or other inputs). */
    synchronized List<AppliedVersion> versions(String key, String inputs) {
        Entry last = entries.get(key);
        return inputs != null && last != null && last.inputs().equals(inputs) ? last.versions() : null;
    }

    synchronized void forget(String key) {
        entries.remove(key);
    }
}
