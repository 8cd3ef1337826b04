package io.lakehouse.engines.config;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.reconcile.EngineReconciler;
import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.crypto.SecretSealer;
import io.lakehouse.common.kube.Applier;
import io.lakehouse.common.kube.InformerCache;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Wires the framework-free pieces of {@code common} into this service. */
public class ServiceProducers {

    @Produces
    @Singleton
    InformerCache informerCache(KubernetesClient client, ServiceSettings service) {
        return new InformerCache(client, service.name());
    }

    @Produces
    @Singleton
    Applier applier(KubernetesClient client, InformerCache cache) {
        return new Applier(client, cache, EngineReconciler.KINDS);
    }

    @Produces
    @Singleton
    EngineContext engineContext(ServiceSettings service, ClusterSettings cluster, EngineSettings engines) {
        return EngineContext.of(service.name(), cluster, engines);
    }

    /** {@code lakehouse.secrets.key}: base64 of 32 random bytes, from a Secret in production. */
    @Produces
    @Singleton
    SecretSealer secretSealer(@ConfigProperty(name = "lakehouse.secrets.key") String key) {
        return new SecretSealer(key);
    }
}
