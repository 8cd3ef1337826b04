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
import java.util.function.Supplier;

/**
 * Remembers, per instance, a SHA-256 of everything its last complete converge pass read: the stored row (spec,
 * generation, status), its dependencies' state (catalog, OIDC client, grants, group members, what its kind reads of
 * the service's context), the resourceVersion of each of its objects in the cache and of each Secret of others it read.
 * A pass whose inputs are the same would build the same objects, find them all in place and compute the same status:
 * it is skipped (P5/P7: a resync after a
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

    /**
     * A pass's two fingerprints: {@code read}, of everything it reads; {@code desired}, of what its desired objects are
     * built from ({@code read} without the row's status and without the versions of the instance's objects but its
     * Secrets, which a pod template's digest reads). Objects still as the last apply with the same {@code desired} left
     * them need no apply ({@link LastApplied}).
     */
    record Fingerprints(String read, String desired) {}

    /**
     * The fingerprints of this pass's inputs, or null when they cannot all be known (nothing skipped then).
     *
     * @param context what the kind reads of the service's context ({@link InstanceKind#contextInputs}), asked only
     *     when the rest can be known
     */
    Fingerprints of(Instance inst, Gates gates, List<Subject> granted, Map<String, List<String>> members,
            Supplier<String> context) {
        String others = cache.othersSecretsVersions(inst.namespace(), inst.name());
        if (others == null) {
            return null;
        }
        Map<String, String> versions = new TreeMap<>();
        Map<String, String> secrets = new TreeMap<>();
        for (ResourceKind kind : watched) {
            for (HasMetadata o : cache.ownedBy(kind, inst.namespace(), inst.kind(), inst.name())) {
                String object = kind.key() + "/" + o.getMetadata().getName();
                versions.put(object, o.getMetadata().getResourceVersion());
                if (kind.equals(ResourceKind.SECRET)) {
                    secrets.put(object, o.getMetadata().getResourceVersion());
                }
            }
        }
        Instance intent = new Instance(inst.namespace(), inst.name(), inst.kind(), inst.uid(), inst.spec(),
                inst.sealedCredentials(), inst.generation(), null, List.of(), inst.deleting(), inst.createdBy(),
                inst.createdAt());
        // Records print all their components; the spec is a record of the kind's fields.
        String dependencies = gates + "|" + granted + "|" + new TreeMap<>(members) + "|" + context.get() + "|" + others;
        return new Fingerprints(Checksums.sha256(inst + "|" + dependencies + "|" + versions),
                Checksums.sha256(intent + "|" + dependencies + "|" + secrets));
    }

    /** Whether the last complete pass of this instance read exactly these inputs. */
    boolean unchanged(Instance inst, Fingerprints inputs) {
        return inputs != null && inputs.read().equals(lastComplete.get(key(inst.namespace(), inst.name())));
    }

    /** A pass with these inputs completed (its writes and status are done). */
    void completed(Instance inst, Fingerprints inputs) {
        if (inputs != null) {
            lastComplete.put(key(inst.namespace(), inst.name()), inputs.read());
        }
    }

    void forget(String namespace, String name) {
        lastComplete.remove(key(namespace, name));
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
