package io.lakehouse.common.kube;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which instances read which Secrets they do not own (a namespace bucket's keys, CloudNativePG's {@code <name>-db-app},
 * another service's Secret), so that a change of such a Secret queues exactly those instances: they carry no label
 * naming the instance. Each instance's set is replaced by its latest pass; keys are {@code namespace/name}.
 */
final class SecretDependents {

    private final ConcurrentHashMap<String, Set<String>> bySecret = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Set<String>> byInstance = new ConcurrentHashMap<>();

    /** The instance {@code namespace/instance} reads exactly these Secrets (names in its namespace) now. */
    synchronized void record(String namespace, String instance, Collection<String> secrets) {
        String key = namespace + "/" + instance;
        Set<String> now = Set.copyOf(secrets.stream().map(s -> namespace + "/" + s).toList());
        Set<String> before = now.isEmpty() ? byInstance.remove(key) : byInstance.put(key, now);
        if (before != null) {
            before.stream().filter(s -> !now.contains(s)).forEach(s -> unlink(s, key));
        }
        now.forEach(s -> bySecret.computeIfAbsent(s, k -> ConcurrentHashMap.newKeySet()).add(key));
    }

    /** Forgets an instance that is gone. */
    void forget(String namespace, String instance) {
        record(namespace, instance, Set.of());
    }

    /** The Secrets ({@code namespace/name}) the latest pass of {@code namespace/instance} read, sorted. */
    Set<String> readBy(String namespace, String instance) {
        Set<String> keys = byInstance.get(namespace + "/" + instance);
        return keys == null ? Set.of() : new TreeSet<>(keys);
    }

    /** The instances ({@code namespace/name}) that read this Secret. */
    Set<String> of(String namespace, String secret) {
        Set<String> keys = bySecret.get(namespace + "/" + secret);
        return keys == null ? Set.of() : Set.copyOf(keys);
    }

    private void unlink(String secret, String instance) {
        bySecret.computeIfPresent(secret, (s, keys) -> {
            keys.remove(instance);
            return keys.isEmpty() ? null : keys;
        });
    }
}
