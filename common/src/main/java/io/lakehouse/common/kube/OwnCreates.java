package io.lakehouse.common.kube;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The resourceVersion each object this process created was given, until the watch delivers that version: its echo.
 * The pass that created an object saw it (its progress reads what it created, {@link InformerCache#seenOrCreated}),
 * so the echo carries no new input and queues no pass (it made one wasted pass per catalog under load). The watch
 * may deliver the echo before the create's answer is recorded here: the reconcile loop holds the events of an
 * instance whose pass is running and asks again when the pass ends ({@link ReconcileLoop}). At most one entry per
 * object (a later create replaces it); dropped on the echo or a delete.
 */
final class OwnCreates {

    private final Map<String, String> versions = new ConcurrentHashMap<>();

    void created(String key, String resourceVersion) {
        if (resourceVersion != null) {
            versions.put(key, resourceVersion);
        }
    }

    /** Whether this version of the object is the one our create was given (and its echo not told yet). */
    boolean holds(String key, String resourceVersion) {
        return resourceVersion != null && resourceVersion.equals(versions.get(key));
    }

    /** Whether this version of the object is the echo of our create; forgotten once told (a second event is not). */
    boolean isEcho(String key, String resourceVersion) {
        return resourceVersion != null && versions.remove(key, resourceVersion);
    }

    void forget(String key) {
        versions.remove(key);
    }
}
