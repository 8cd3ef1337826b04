package io.lakehouse.common.storage;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.kube.BucketSecrets;
import io.lakehouse.common.problem.ApiException;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
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

    NamespaceBuckets(KubernetesClient client) {
        this.client = client;
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

    /** The Secret, if it exists in the namespace. */
    public Uni<Optional<Secret>> secret(String namespace, String name) {
        return Uni.createFrom().item(() -> Optional.ofNullable(client.secrets().inNamespace(namespace).withName(name).get()))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
