package io.lakehouse.common.instances;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.lakehouse.common.kube.Checksums;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.common.security.Subject;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers, per instance, a SHA-256 of everything its last complete converge pass read: the stored row (spec,
 * generation, status), its dependencies' state (catalog, OIDC client, grants, group members), the resourceVersion of
 * each of its objects in the cache and of each Secret of others it read. A pass whose inputs are the same would build
 * the same objects, find them all in place and compute the same status: it is skipped (P5/P7: a resync after a
 * listener reconnection, a catalog event that wakes its dependents, a watch echo of a write the last pass already
 * saw). Nothing is skipped when the cache cannot tell whether a Secret of others changed. Kept in memory only (a
 * restarted or new leader runs every pass once), ≈ 150 bytes per instance.
 */
final class PassInputs {

    private final Map<String, String> lastComplete = new ConcurrentHashMap<>();
    private final List<ResourceKind> watched;
    private final InformerCache cache;

    PassInputs(List<ResourceKind> watched, InformerCache cache) {
        this.watched = watched;
        this.cache = cache;
    }

    /** The fingerprint of this pass's inputs, or null when they cannot all be known (never skipped then). */
    String of(Instance inst, Gates gates, List<Subject> granted, Map<String, List<String>> members) {
        String others = cache.othersSecretsVersions(inst.namespace(), inst.name());
        if (others == null) {
            return null;
        }
        Map<String, String> versions = new TreeMap<>();
        for (ResourceKind kind : watched) {
            for (HasMetadata o : cache.ownedBy(kind, inst.namespace(), inst.kind(), inst.name())) {
                versions.put(kind.key() + "/" + o.getMetadata().getName(), o.getMetadata().getResourceVersion());
            }
        }
        // Records print all their components; the spec is a record of the kind's fields.
        return Checksums.sha256(inst + "|" + gates + "|" + granted + "|" + new TreeMap<>(members) + "|" + versions + "|"
                + others);
    }

    /** Whether the last complete pass of this instance read exactly these inputs. */
    boolean unchanged(Instance inst, String inputs) {
        return inputs != null && inputs.equals(lastComplete.get(key(inst.namespace(), inst.name())));
    }

    /** A pass with these inputs completed (its writes and status are done). */
    void completed(Instance inst, String inputs) {
        if (inputs != null) {
            lastComplete.put(key(inst.namespace(), inst.name()), inputs);
        }
    }

    void forget(String namespace, String name) {
        lastComplete.remove(key(namespace, name));
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
