package io.lakehouse.sparkjobs.config;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.kube.InformerCache;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Wires the framework-free pieces of {@code common} this service uses. */
public class ServiceProducers {

    /** The objects this service made (its managed-by label): the namespaces' spark accounts. */
    @Produces
    @Singleton
    InformerCache informerCache(KubernetesClient client, ServiceSettings service) {
        return new InformerCache(client, service.name());
    }
}
