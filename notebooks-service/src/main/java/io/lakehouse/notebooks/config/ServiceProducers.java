package io.lakehouse.notebooks.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.crypto.SecretSealer;
import io.lakehouse.common.instances.InstanceKinds;
import io.lakehouse.common.instances.InstanceReconciler;
import io.lakehouse.common.instances.InstanceStore;
import io.lakehouse.common.instances.api.InstanceService;
import io.lakehouse.common.kube.Applier;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.common.storage.NamespaceBuckets;
import io.lakehouse.notebooks.api.NotebookService;
import io.lakehouse.notebooks.domain.NotebookKinds;
import io.lakehouse.notebooks.reconcile.NotebookContext;
import io.lakehouse.notebooks.reconcile.NotebookDependencies;
import io.lakehouse.notebooks.reconcile.UserServerPods;
import io.lakehouse.notebooks.reconcile.UserVolumes;
import io.lakehouse.notebooks.store.HubStore;
import io.lakehouse.notebooks.store.KnownInstanceStore;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Wires the framework-free pieces of {@code common} and the instance framework to the jupyterhub kind. */
public class ServiceProducers {

    @Produces
    @Singleton
    InformerCache informerCache(KubernetesClient client, ServiceSettings service) {
        return new InformerCache(client, service.name());
    }

    @Produces
    @Singleton
    Applier applier(KubernetesClient client, InformerCache cache) {
        return new Applier(client, cache, NotebookKinds.MANAGED);
    }

    @Produces
    @Singleton
    NotebookContext notebookContext(ServiceSettings service, ClusterSettings cluster, NotebookSettings notebooks,
            KnownInstanceStore known, UserServerPods servers) {
        return NotebookContext.of(service.name(), cluster, notebooks, known, servers);
    }

    @Produces
    @Singleton
    InstanceKinds<NotebookContext> kinds(NotebookContext ctx) {
        return NotebookKinds.of(ctx.defaults());
    }

    /** {@code lakehouse.secrets.key}: base64 of 32 random bytes, from a Secret in production. */
    @Produces
    @Singleton
    SecretSealer secretSealer(@ConfigProperty(name = "lakehouse.secrets.key") String key) {
        return new SecretSealer(key);
    }

    @Produces
    @Singleton
    InstanceStore instanceStore(Pool pool, ObjectMapper json, InstanceKinds<NotebookContext> kinds) {
        return new InstanceStore(pool, json, kinds);
    }

    @Produces
    @Singleton
    InstanceService<NotebookContext> instanceService(InstanceStore store, NotebookDependencies dependencies,
            NamespaceBuckets buckets, SecretSealer sealer, NotebookContext ctx, ServiceSettings service, HubStore hubs,
            KnownInstanceStore known, UserVolumes volumes) {
        return new NotebookService(store, dependencies, buckets, sealer, ctx, service.eventSource(), hubs, known,
                volumes);
    }

    @Produces
    @Singleton
    InstanceReconciler<NotebookContext> instanceReconciler(InstanceStore store, NotebookDependencies dependencies,
            Applier applier, InformerCache cache, NotebookContext ctx, SecretSealer sealer, ServiceSettings service,
            InstanceKinds<NotebookContext> kinds) {
        return new InstanceReconciler<>(kinds, store, dependencies, applier, cache, ctx, sealer,
                service.eventSource());
    }
}
