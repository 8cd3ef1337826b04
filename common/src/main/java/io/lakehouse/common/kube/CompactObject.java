package io.lakehouse.common.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The small copy of a live object that the informer cache keeps from the moment it arrives (P6: ≤ 15 KB
 * of memory per instance; until a pass compared it, the cache also keeps its whole JSON, {@link WholeJson}).
 * What readers of the cache use survives: name, namespace, uid, resourceVersion,
 * generation, labels, annotations, owner references, the status, {@code spec.replicas} (readiness) and a
 * Secret's type. What goes: config files, pod templates, Secret values. Two in-memory annotations, never
 * written to the API server, tell the cache's users what it was made from: {@link #MARK} (the checksum of
 * the desired state this version of the object was seen to carry) and, on Secrets, {@link #DATA_DIGEST} and
 * {@link #DATA_KEYS}.
 */
public final class CompactObject {

    /** On every compact copy: the desired-state checksum verified against this version, or "" if none. */
    static final String MARK = "lakehouse.io/cache-compact";
    /** On compact Secrets: {@link #dataDigest} of the data they no longer hold. */
    static final String DATA_DIGEST = "lakehouse.io/cache-data-digest";
    /** On compact Secrets: the keys of their data, comma-separated and sorted (a create checks a bucket's keys). */
    static final String DATA_KEYS = "lakehouse.io/cache-data-keys";

    /** kubectl apply's copy of the whole object it applied, a Secret's data included. */
    static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private CompactObject() {}

    /**
     * Whether nothing ever compares the whole of this object, so that the cache keeps no {@link WholeJson} of it: a
     * Secret (compared by the digest of its data, and its values then never stay in memory) and a Job (run once,
     * created and never updated: only its status and annotations are read).
     */
    static boolean neverComparedWhole(HasMetadata o) {
        return o instanceof Secret || o instanceof Job;
    }

    /** The compact copy of {@code full}; {@code verified} is the checksum of a desired state it carries, or "". */
    static HasMetadata of(HasMetadata full, String verified) {
        return of(full, verified, null);
    }

    /** {@link #of(HasMetadata, String)} reading {@code fullTree}, the full object's JSON tree, when not null. */
    static HasMetadata of(HasMetadata full, String verified, JsonNode fullTree) {
        return withMetadata(full, neverComparedWhole(full) ? kept(full)
                : keptThroughJson(full, fullTree != null ? fullTree : SERIALIZATION.convertValue(full, JsonNode.class)),
                verified);
    }

    /**
     * What a Secret or a Job keeps, copied field by field. Why not through JSON like the rest: objects are
     * compacted as they arrive, on the client's event loop while the informers' first lists come in; a
     * JSON round trip of every Secret and Job (values, pod templates) blocked that loop for seconds at
     * 1,750 catalogs, and the next pages of every kind waited behind it until their 10 s timeout (P8). The
     * other kinds go through JSON once anyway, for their {@link WholeJson}.
     */
    private static HasMetadata kept(HasMetadata full) {
        if (full instanceof Secret s) {
            Secret kept = new Secret();
            kept.setApiVersion(Interned.of(s.getApiVersion()));
            kept.setKind(Interned.of(s.getKind()));
            kept.setType(Interned.of(s.getType()));
            return kept;
        }
        Job job = (Job) full;
        Job kept = new Job();
        kept.setApiVersion(Interned.of(job.getApiVersion()));
        kept.setKind(Interned.of(job.getKind()));
        kept.setStatus(interned(job.getStatus()));
        return kept;
    }

    /** A copy of the Job's status with its strings interned (the informer hands the full Job to its listeners after). */
    private static JobStatus interned(JobStatus full) {
        JobStatus status = full == null ? null : new JobStatusBuilder(full).build();
        if (status != null) {
            status.setStartTime(Interned.of(status.getStartTime()));
            status.setCompletionTime(Interned.of(status.getCompletionTime()));
            for (JobCondition c : status.getConditions() == null ? List.<JobCondition>of() : status.getConditions()) {
                c.setType(Interned.of(c.getType()));
                c.setStatus(Interned.of(c.getStatus()));
                c.setReason(Interned.of(c.getReason()));
                c.setMessage(Interned.of(c.getMessage()));
                c.setLastProbeTime(Interned.of(c.getLastProbeTime()));
                c.setLastTransitionTime(Interned.of(c.getLastTransitionTime()));
            }
        }
        return status;
    }

    /** What any other object keeps (status, a Secret's type, {@code spec.replicas}), through its JSON tree. */
    private static HasMetadata keptThroughJson(HasMetadata full, JsonNode tree) {
        ObjectNode kept = JsonNodeFactory.instance.objectNode();
        kept.set("apiVersion", tree.get("apiVersion"));
        kept.set("kind", tree.get("kind"));
        copy(tree, kept, "status");
        copy(tree, kept, "type");
        if (tree.path("spec").has("replicas")) {
            kept.putObject("spec").set("replicas", tree.path("spec").get("replicas"));
        }
        return SERIALIZATION.convertValue(Interned.tree(kept), full.getClass());
    }

    private static HasMetadata withMetadata(HasMetadata full, HasMetadata compact, String verified) {
        Map<String, String> annotations = new HashMap<>();
        if (full.getMetadata().getAnnotations() != null) {
            annotations.putAll(full.getMetadata().getAnnotations());
        }
        annotations.remove(LAST_APPLIED); // never read, the size of the object, and a Secret's values in clear
        annotations.put(MARK, verified == null ? "" : verified); // interned below: the checksum annotation's own value
        if (full instanceof Secret s) {
            annotations.put(DATA_DIGEST, dataDigest(s));
            annotations.put(DATA_KEYS, String.join(",", dataKeys(s)));
        }
        NoExtras.strip(compact); // before the metadata, which is built of immutable collections already
        compact.setMetadata(metadata(full.getMetadata(), annotations));
        return compact;
    }

    public static boolean isCompact(HasMetadata o) {
        Map<String, String> annotations = o.getMetadata().getAnnotations();
        return annotations != null && annotations.containsKey(MARK);
    }

    /** The checksum of the desired state a compact copy was seen to carry, or "" (none, or not compared yet). */
    static String verifiedChecksum(HasMetadata compact) {
        Map<String, String> annotations = compact.getMetadata().getAnnotations();
        String mark = annotations == null ? null : annotations.get(MARK);
        return mark == null ? "" : mark;
    }

    /** Whether this object is a compact copy seen to carry the desired state of this checksum. */
    static boolean verifies(HasMetadata compact, String checksum) {
        return checksum != null && !checksum.isEmpty() && checksum.equals(verifiedChecksum(compact));
    }

    /**
     * SHA-256 of a Secret's data (sorted by key), full or compact: what tells a change of its values
     * without holding them.
     */
    public static String dataDigest(Secret secret) {
        Map<String, String> annotations = secret.getMetadata() == null ? null : secret.getMetadata().getAnnotations();
        if (annotations != null && annotations.containsKey(DATA_DIGEST)) {
            return annotations.get(DATA_DIGEST);
        }
        return Checksums.sha256(new TreeMap<>(secret.getData() == null ? Map.of() : secret.getData()).toString());
    }

    /** The keys of a Secret's data (and stringData), full or compact, sorted: never a value. */
    public static SortedSet<String> dataKeys(Secret secret) {
        Map<String, String> annotations = secret.getMetadata() == null ? null : secret.getMetadata().getAnnotations();
        if (annotations != null && annotations.containsKey(DATA_KEYS)) {
            String keys = annotations.get(DATA_KEYS);
            return keys.isEmpty() ? new TreeSet<>() : new TreeSet<>(Arrays.asList(keys.split(",")));
        }
        SortedSet<String> keys = new TreeSet<>(secret.getData() == null ? Set.of() : secret.getData().keySet());
        keys.addAll(secret.getStringData() == null ? Set.of() : secret.getStringData().keySet());
        return keys;
    }

    /**
     * What the cache's readers use of the metadata, in immutable compact collections (also sparkjobs-service's
     * tracker cache).
     */
    public static ObjectMeta metadata(ObjectMeta full, Map<String, String> annotations) {
        ObjectMeta m = new ObjectMeta();
        m.setName(Interned.of(full.getName())); // Deployment, Service, Ingress, NetworkPolicy: the instance's name
        m.setNamespace(Interned.of(full.getNamespace()));
        m.setUid(full.getUid());
        m.setResourceVersion(full.getResourceVersion());
        m.setGeneration(full.getGeneration());
        m.setCreationTimestamp(Interned.of(full.getCreationTimestamp()));
        m.setDeletionTimestamp(Interned.of(full.getDeletionTimestamp()));
        m.setLabels(Interned.map(full.getLabels()));
        m.setAnnotations(Interned.map(annotations));
        // An instance's objects name the same owner: one list for all of them (≈ 600 bytes per catalog, P6).
        m.setOwnerReferences(full.getOwnerReferences() == null ? List.of() : Interned.shared(List.of(
                full.getOwnerReferences().stream().map(CompactObject::ownerReference).toArray(OwnerReference[]::new))));
        m.setFinalizers(full.getFinalizers() == null ? List.of()
                : List.of(full.getFinalizers().stream().map(Interned::of).toArray(String[]::new)));
        m.setManagedFields(List.of());
        m.setAdditionalProperties(Map.of());
        return m;
    }

    /** The owner reference with interned strings: every object of an instance has the same. */
    private static OwnerReference ownerReference(OwnerReference r) {
        OwnerReference copy = new OwnerReference(Interned.of(r.getApiVersion()), r.getBlockOwnerDeletion(), r.getController(),
                Interned.of(r.getKind()), Interned.of(r.getName()), Interned.of(r.getUid()));
        copy.setAdditionalProperties(Map.of());
        return copy;
    }

    private static void copy(JsonNode from, ObjectNode to, String field) {
        if (from.has(field)) {
            to.set(field, from.get(field));
        }
    }
}
