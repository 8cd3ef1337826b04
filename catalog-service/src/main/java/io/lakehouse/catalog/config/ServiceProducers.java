package io.lakehouse.catalog.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.catalog.domain.CatalogKinds;
import io.lakehouse.catalog.reconcile.CatalogContext;
import io.lakehouse.catalog.reconcile.CatalogDependencies;
import io.lakehouse.catalog.store.DependentsStore;
import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.crypto.SecretSealer;
import io.lakehouse.common.instances.InstanceReconciler;
import io.lakehouse.common.instances.InstanceStore;
import io.lakehouse.common.instances.api.InstanceService;
import io.lakehouse.common.kube.Applier;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.common.storage.NamespaceBuckets;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Wires the framework-free pieces of {@code common} and the instance framework to the catalog kind. */
public class ServiceProducers {

    @Produces
    @Singleton
    InformerCache informerCache(KubernetesClient client, ServiceSettings service) {
        // The Secrets of others too: the pod templates' digests and the create's credentials check read them.
        return new InformerCache(client, service.name()).withOthersSecrets();
    }

    @Produces
    @Singleton
    Applier applier(KubernetesClient client, InformerCache cache) {
        return new Applier(client, cache, CatalogKinds.WATCHED);
    }

    @Produces
    @Singleton
    CatalogContext catalogContext(ServiceSettings service, ClusterSettings cluster) {
        return CatalogContext.of(service.name(), cluster);
    }

    /** {@code lakehouse.secrets.key}: base64 of 32 random bytes, from a Secret in production. */
    @Produces
    @Singleton
    SecretSealer secretSealer(@ConfigProperty(name = "lakehouse.secrets.key") String key) {
        return new SecretSealer(key);
    }

    @Produces
    @Singleton
    InstanceStore instanceStore(Pool pool, ObjectMapper json) {
        return new InstanceStore(pool, json, CatalogKinds.ALL, DependentsStore.USED_BY);
    }

    @Produces
    @Singleton
    InstanceService<CatalogContext> instanceService(InstanceStore store, CatalogDependencies dependencies,
            NamespaceBuckets buckets, SecretSealer sealer, CatalogContext ctx, ServiceSettings service) {
        return new InstanceService<>(store, dependencies, buckets, sealer, ctx, service.eventSource());
    }

    @Produces
    @Singleton
    InstanceReconciler<CatalogContext> instanceReconciler(InstanceStore store, CatalogDependencies dependencies,
            Applier applier, InformerCache cache, CatalogContext ctx, SecretSealer sealer, ServiceSettings service) {
        return new InstanceReconciler<>(CatalogKinds.ALL, CatalogKinds.WATCHED, store, dependencies, applier, cache,
                ctx, sealer, service.eventSource());
    }
}
