package io.lakehouse.catalog.store;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.kube.BucketSecrets;
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

    /** The Secret, if it exists in the namespace. */
    public Uni<Optional<Secret>> secret(String namespace, String name) {
        return Uni.createFrom().item(() -> Optional.ofNullable(client.secrets().inNamespace(namespace).withName(name).get()))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
