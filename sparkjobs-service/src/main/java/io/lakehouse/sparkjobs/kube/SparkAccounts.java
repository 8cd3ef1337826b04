package io.lakehouse.sparkjobs.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.config.ReconcileSettings;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.sparkjobs.config.SparkJobSettings;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Ensures a namespace's {@code spark} account at every launch without asking the API server each time
 * (three GETs a launch before): the service's informer cache of the ServiceAccounts, Roles and RoleBindings
 * it made answers "are they there?". Only a miss reaches the API server: the first launch in a namespace,
 * objects deleted by hand (the watch removes them from the cache, so the next launch makes them again), an
 * admin's objects without our label, a cache that did not sync. Every replica runs its own cache (not only a
 * leader), so two replicas see the same deletions; a create racing another replica's answers 409, taken as
 * "there". The cache relists after a dropped watch and the liveness check {@code informers} reports it stopped.
 */
@ApplicationScoped
public class SparkAccounts {

    private static final Logger LOG = Logger.getLogger(SparkAccounts.class);

    private final KubernetesClient kube;
    private final InformerCache cache;
    private final SparkJobSettings settings;
    private final ServiceSettings service;
    private final ReconcileSettings reconcile;
    /** The cache started and synced: its three kinds can be asked by name. */
    private volatile boolean cached;

    SparkAccounts(KubernetesClient kube, InformerCache cache, SparkJobSettings settings, ServiceSettings service,
            ReconcileSettings reconcile) {
        this.kube = kube;
        this.cache = cache;
        this.settings = settings;
        this.service = service;
        this.reconcile = reconcile;
    }

    void start(@Observes StartupEvent event) {
        try {
            cache.start(SparkRbac.KINDS, reconcile.cacheSyncTimeout().toSeconds());
            cached = true;
        } catch (RuntimeException e) {
            // Launches still work, each reading the three objects from the API server.
            LOG.warnf("the spark accounts are not cached: %s", e.getMessage());
        }
    }

    void stop(@Observes ShutdownEvent event) {
        cache.close();
    }

    /** Creates what is missing of the namespace's account; the kinds created (empty when all were there). */
    public List<String> ensure(String namespace) {
        if (cached && SparkRbac.KINDS.stream()
                .allMatch(kind -> cache.get(kind, namespace, settings.serviceAccount()).isPresent())) {
            // The launch's usual case: all three there, asked by name (the objects are not built to ask).
            return List.of();
        }
        List<String> created = SparkRbac.ensure(kube, cache, namespace, settings.serviceAccount(), service.name());
        if (!created.isEmpty()) {
            LOG.infof("namespace %s: created the %s account's %s", namespace, settings.serviceAccount(), created);
        }
        return created;
    }
}
