package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Informers on the objects one service manages (selected by its managed-by label) in every
 * namespace: reads come from the local cache, changes are pushed to a callback. No periodic LIST.
 */
public class InformerCache implements AutoCloseable {

    private final KubernetesClient client;
    private final String managedBy;
    private final List<Consumer<HasMetadata>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<String, SharedIndexInformer<HasMetadata>> informers = new LinkedHashMap<>();

    public InformerCache(KubernetesClient client, String managedBy) {
        this.client = client;
        this.managedBy = managedBy;
    }

    /** Called on every add, update and delete of a watched object. */
    public void onChange(Consumer<HasMetadata> listener) {
        listeners.add(listener);
    }

    /** Starts informers on these kinds and waits until their caches are synced. */
    public void start(List<ResourceKind> kinds, long syncTimeoutSeconds) {
        for (ResourceKind kind : kinds) {
            SharedIndexInformer<HasMetadata> informer = kind.operations(client)
                    .inAnyNamespace()
                    .withLabel(Labels.MANAGED_BY, managedBy)
                    .runnableInformer(0);
            informer.addEventHandler(new Handler());
            informers.put(kind.key(), informer);
        }
        List<java.util.concurrent.CompletableFuture<Void>> started = new ArrayList<>();
        informers.values().forEach(i -> started.add(i.start().toCompletableFuture()));
        try {
            java.util.concurrent.CompletableFuture.allOf(started.toArray(java.util.concurrent.CompletableFuture[]::new))
                    .get(syncTimeoutSeconds, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("informer caches did not sync: " + e.getMessage(), e);
        }
    }

    public Optional<HasMetadata> get(ResourceKind kind, String namespace, String name) {
        SharedIndexInformer<HasMetadata> informer = informers.get(kind.key());
        if (informer == null) {
            throw new IllegalArgumentException("no informer for " + kind.key());
        }
        return Optional.ofNullable(informer.getStore().getByKey(namespace + "/" + name));
    }

    public Optional<HasMetadata> get(HasMetadata desired) {
        SharedIndexInformer<HasMetadata> informer = informers.get(ResourceKind.keyOf(desired));
        if (informer == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(informer.getStore()
                .getByKey(desired.getMetadata().getNamespace() + "/" + desired.getMetadata().getName()));
    }

    /** Every cached object of this kind that belongs to the given instance. */
    public List<HasMetadata> ownedBy(ResourceKind kind, String namespace, String instanceKind, String instance) {
        SharedIndexInformer<HasMetadata> informer = informers.get(kind.key());
        return informer.getStore().list().stream()
                .filter(o -> namespace.equals(o.getMetadata().getNamespace()))
                .filter(o -> instance.equals(label(o, Labels.INSTANCE)) && instanceKind.equals(label(o, Labels.INSTANCE_KIND)))
                .toList();
    }

    public boolean isWatching() {
        return !informers.isEmpty() && informers.values().stream().allMatch(SharedIndexInformer::isWatching);
    }

    @Override
    public void close() {
        informers.values().forEach(SharedIndexInformer::close);
        informers.clear();
    }

    private static String label(HasMetadata o, String key) {
        Map<String, String> labels = o.getMetadata().getLabels();
        return labels == null ? null : labels.get(key);
    }

    private final class Handler implements ResourceEventHandler<HasMetadata> {
        @Override
        public void onAdd(HasMetadata obj) {
            listeners.forEach(l -> l.accept(obj));
        }

        @Override
        public void onUpdate(HasMetadata oldObj, HasMetadata newObj) {
            listeners.forEach(l -> l.accept(newObj));
        }

        @Override
        public void onDelete(HasMetadata obj, boolean deletedFinalStateUnknown) {
            listeners.forEach(l -> l.accept(obj));
        }
    }
}
