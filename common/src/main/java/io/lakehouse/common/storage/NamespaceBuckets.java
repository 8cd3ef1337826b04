package io.lakehouse.common.storage;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.kube.BucketSecrets;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.validation.Names;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The buckets a namespace can pick, read from its bucket Secrets (see {@link BucketSecrets}). The
 * Kubernetes client blocks: calls run on worker threads, never on the event loop.
 */
@ApplicationScoped
public class NamespaceBuckets {

    private final KubernetesClient client;
    /** The service's informer cache; null in a service without one (access-service). */
    private final InformerCache cache;

    NamespaceBuckets(KubernetesClient client, Instance<InformerCache> cache) {
        this.client = client;
        this.cache = cache.isResolvable() ? cache.get() : null;
    }

    public Uni<List<BucketSecrets.Bucket>> list(String namespace) {
        return Uni.createFrom().item(() -> client.secrets().inNamespace(namespace)
                        .withLabel(BucketSecrets.LABEL, "true").list().getItems().stream()
                        .map(BucketSecrets::describe)
                        .sorted(Comparator.comparing(BucketSecrets.Bucket::name))
                        .toList())
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    /**
     * A storage block that picks a namespace bucket: {@code bucket} names a bucket Secret (see
     * {@code GET .../buckets}) and no {@code endpoint} is given. The S3 bucket, endpoint, region, path style and
     * credentials Secret are filled from that Secret; region, path style and credentials given in the form win.
     * 422 naming the bucket when the namespace has no bucket Secret of that name. Storage with an endpoint is
     * taken as written (a bucket outside the namespace's list).
     */
    public Uni<StorageSpec> resolve(String namespace, String field, StorageSpec storage) {
        if (storage == null || storage.endpoint() != null || storage.bucket() == null
                || !Names.isDns1123Label(storage.bucket())) {
            return Uni.createFrom().item(storage);
        }
        return secret(namespace, storage.bucket()).map(secret -> {
            if (secret.isEmpty() || !BucketSecrets.isBucket(secret.get())) {
                throw ApiException.invalid(field + ".bucket", "no namespace bucket '" + storage.bucket()
                        + "' in namespace '" + namespace + "': name one of GET /api/v1/namespaces/" + namespace
                        + "/buckets, or give the endpoint of another bucket");
            }
            BucketSecrets.Bucket picked = BucketSecrets.describe(secret.get());
            boolean ownCredentials = storage.credentialsSecret() != null || storage.hasInlineKeys();
            return new StorageSpec(picked.bucket(), picked.endpoint(),
                    storage.region() != null ? storage.region() : picked.region(),
                    storage.pathStyleAccess() != null ? storage.pathStyleAccess() : picked.pathStyleAccess(),
                    ownCredentials ? storage.credentialsSecret() : picked.credentialsSecret(),
                    storage.accessKeyId(), storage.secretAccessKey());
        });
    }

    /**
     * 422 unless the storage's credentials Secret exists in the namespace with both keys; nothing to
     * check for inline keys.
     */
    public Uni<Void> requireCredentials(String namespace, String field, StorageSpec storage) {
        if (storage == null || storage.credentialsSecret() == null) {
            return Uni.createFrom().voidItem();
        }
        return secret(namespace, storage.credentialsSecret()).invoke(secret -> {
            if (secret.isEmpty()) {
                throw ApiException.invalid(field + ".credentialsSecret",
                        "no Secret '" + storage.credentialsSecret() + "' in namespace '" + namespace + "'");
            }
            if (!BucketSecrets.hasKeys(secret.get())) {
                throw ApiException.invalid(field + ".credentialsSecret", "Secret '" + storage.credentialsSecret()
                        + "' has no " + BucketSecrets.ACCESS_KEY_ID + " and " + BucketSecrets.SECRET_ACCESS_KEY);
            }
        }).replaceWithVoid();
    }

    /**
     * The Secret, if it exists in the namespace: from the informer cache when it holds it (compact: labels,
     * annotations, the keys of its data), else a GET. Why a miss still asks the API server: a Secret created just
     * before the request may not have reached the cache yet (its watch event is on the way), and a 422 then would be
     * wrong; a miss is the rare case (a wrong name, a follower replica, which runs no informers).
     */
    public Uni<Optional<Secret>> secret(String namespace, String name) {
        Optional<Secret> cached = cache == null ? Optional.empty() : cache.secret(namespace, name);
        if (cached.isPresent()) {
            return Uni.createFrom().item(cached);
        }
        return Uni.createFrom().item(() -> Optional.ofNullable(client.secrets().inNamespace(namespace).withName(name).get()))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
