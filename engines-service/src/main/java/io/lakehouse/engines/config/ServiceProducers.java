package io.lakehouse.engines.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.crypto.SecretSealer;
import io.lakehouse.common.instances.InstanceReconciler;
import io.lakehouse.common.instances.InstanceStore;
import io.lakehouse.common.instances.api.InstanceService;
import io.lakehouse.common.kube.Applier;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.common.storage.NamespaceBuckets;
import io.lakehouse.engines.domain.EngineKinds;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.reconcile.EngineDependencies;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Wires the framework-free pieces of {@code common} and the instance framework to the engine kinds. */
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
        return new Applier(client, cache, InstanceReconciler.KINDS);
    }

    @Produces
    @Singleton
    EngineContext engineContext(ServiceSettings service, ClusterSettings cluster, EngineSettings engines,
            @ConfigProperty(name = "quarkus.oidc.token.audience") String apiAudience) {
        // Trino's JWT authenticator requires the audience this service requires of its own callers.
        return EngineContext.of(service.name(), cluster, engines, apiAudience);
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
        return new InstanceStore(pool, json, EngineKinds.ALL);
    }

    @Produces
    @Singleton
    InstanceService<EngineContext> instanceService(InstanceStore store, EngineDependencies dependencies,
            NamespaceBuckets buckets, SecretSealer sealer, EngineContext ctx, ServiceSettings service) {
        return new InstanceService<>(store, dependencies, buckets, sealer, ctx, service.eventSource());
    }

    @Produces
    @Singleton
    InstanceReconciler<EngineContext> instanceReconciler(InstanceStore store, EngineDependencies dependencies,
            Applier applier, InformerCache cache, EngineContext ctx, SecretSealer sealer, ServiceSettings service) {
        return new InstanceReconciler<>(EngineKinds.ALL, store, dependencies, applier, cache, ctx, sealer,
                service.eventSource());
    }
}
