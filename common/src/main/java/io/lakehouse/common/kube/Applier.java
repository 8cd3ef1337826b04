package io.lakehouse.common.kube;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one apply primitive: create when missing, otherwise update only when the live object no longer
 * carries the desired state, re-reading and retrying on 409. Plain create/update (no server-side
 * apply, no strategic merge) so it behaves the same on the mock API server and a real cluster. An
 * object of the same name that belongs to something else is never written ({@link Ownership}).
 */
public class Applier {

    private static final int MAX_ATTEMPTS = 4;
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private final KubernetesClient client;
    private final InformerCache cache;
    private final Map<String, ResourceKind> kinds;

    public Applier(KubernetesClient client, InformerCache cache, Iterable<ResourceKind> kinds) {
        this.client = client;
        this.cache = cache;
        this.kinds = new HashMap<>();
        kinds.forEach(k -> this.kinds.put(k.key(), k));
    }

    public Applied apply(HasMetadata desired, ApplyMode mode) {
        // A digest of secret values would be a way to guess them: Secrets are not stamped, their checksum
        // stays in memory (and they are compared by the digest of their data, see LiveMatch.coversSecret).
        // One serialization of the desired object serves its checksum and the comparison with a whole live object.
        JsonNode desiredTree = desired instanceof Secret ? null : SERIALIZATION.convertValue(desired, JsonNode.class);
        String checksum = desired instanceof Secret ? Checksums.of(desired) : stamp(desired, desiredTree);
        // A miss in a synced cache means missing; before its informer synced (the first passes after a
        // start run while the caches fill), ask the API server instead of creating blindly (a 409 each).
        HasMetadata live = cache.synced(desired) ? cache.get(desired).orElse(null) : resource(desired).get();
        for (int attempt = 1; ; attempt++) {
            try {
                if (live == null) {
                    HasMetadata created = resource(desired).create();
                    cache.created(created);
                    return new Applied(ApplyResult.CREATED, created);
                }
                Ownership.require(desired, live);
                if (mode == ApplyMode.CREATE_ONLY) {
                    cache.verified(live, "");
                    return new Applied(ApplyResult.UNCHANGED, live);
                }
                if (desired instanceof Secret s ? LiveMatch.coversSecret(s, live)
                        : CompactObject.verifies(live, checksum)) {
                    cache.verified(live, checksum);
                    return new Applied(ApplyResult.UNCHANGED, live);
                }
                if (!(desired instanceof Secret)) {
                    // The cache's objects are compact: the whole version is its kept JSON, or the API server's copy.
                    JsonNode liveTree = CompactObject.isCompact(live) ? cache.wholeTree(live)
                            : SERIALIZATION.convertValue(live, JsonNode.class);
                    if (liveTree == null && CompactObject.verifiedChecksum(live).isEmpty()) {
                        live = resource(desired).get(); // its JSON went without a comparison (created once)
                        continue;
                    }
                    // Without its JSON, a version seen to carry another desired state (the spec, or a digest its pod
                    // template reads, changed since) is written without reading it again: the update would follow.
                    if (liveTree != null && LiveMatch.covers(desiredTree, liveTree)) {
                        cache.verified(live, checksum);
                        return new Applied(ApplyResult.UNCHANGED, live);
                    }
                }
                desired.getMetadata().setResourceVersion(live.getMetadata().getResourceVersion());
                return new Applied(ApplyResult.UPDATED, resource(desired).update());
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == MAX_ATTEMPTS) {
                    throw e;
                }
                // Exists already (cache behind) or changed under us: read the truth and decide again.
                live = resource(desired).get();
                desired.getMetadata().setResourceVersion(null);
            }
        }
    }

    /** Stamps the checksum on the object and on its tree (which {@link LiveMatch#covers} then compares). */
    private static String stamp(HasMetadata desired, JsonNode tree) {
        String sum = Checksums.stampTree(tree);
        if (desired.getMetadata().getAnnotations() == null) {
            desired.getMetadata().setAnnotations(new HashMap<>());
        }
        desired.getMetadata().getAnnotations().put(Labels.CHECKSUM, sum);
        return sum;
    }

    /** Deletes an object if it still exists; true when a delete was sent. */
    public boolean delete(HasMetadata live) {
        boolean existed = !resource(live).delete().isEmpty();
        cache.deleted(live);
        return existed;
    }

    public Optional<HasMetadata> live(ResourceKind kind, String namespace, String name) {
        return Optional.ofNullable(kind.operations(client).inNamespace(namespace).withName(name).get());
    }

    private Resource<HasMetadata> resource(HasMetadata object) {
        ResourceKind kind = kinds.get(ResourceKind.keyOf(object));
        if (kind == null) {
            throw new IllegalArgumentException("not a managed kind: " + ResourceKind.keyOf(object));
        }
        return kind.operations(client).inNamespace(object.getMetadata().getNamespace()).resource(object);
    }
}
