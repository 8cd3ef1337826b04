package io.lakehouse.catalog.reconcile;

import io.agroal.api.AgroalDataSource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.lakehouse.catalog.domain.CatalogInstance;
import io.lakehouse.catalog.store.InstanceStore;
import io.lakehouse.common.config.ReconcileSettings;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.common.kube.LeaderLock;
import io.lakehouse.common.kube.WorkQueue;
import io.lakehouse.common.outbox.PgChannelListener;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Feeds the work queue from the three sources of change: the database (intent, through the
 * instances table's NOTIFY trigger, and a full resync after each (re)connection), and Kubernetes
 * (informer events on every owned object, which is how drift is noticed).
 */
@ApplicationScoped
public class ReconcileLoop {

    private static final Logger LOG = Logger.getLogger(ReconcileLoop.class);
    private static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(30);

    private final CatalogReconciler reconciler;
    private final InformerCache cache;
    private final InstanceStore store;
    private final AgroalDataSource dataSource;
    private final ReconcileSettings settings;
    private final ServiceSettings service;
    private volatile WorkQueue queue;
    private PgChannelListener listener;
    private LeaderLock leader;

    ReconcileLoop(CatalogReconciler reconciler, InformerCache cache, InstanceStore store, AgroalDataSource dataSource,
            ReconcileSettings settings, ServiceSettings service) {
        this.reconciler = reconciler;
        this.cache = cache;
        this.store = store;
        this.dataSource = dataSource;
        this.settings = settings;
        this.service = service;
    }

    void start(@Observes StartupEvent event) {
        if (!settings.enabled()) {
            return;
        }
        cache.onChange(this::objectChanged);
        leader = new LeaderLock(dataSource, "reconcile_" + service.schema(), Duration.ofSeconds(5), this::lead,
                this::stepDown).start();
    }

    /** Only the replica holding the lock watches and writes. */
    private synchronized void lead() {
        queue = new WorkQueue("reconcile", settings.workers(), reconciler::reconcile);
        cache.start(CatalogReconciler.KINDS, settings.cacheSyncTimeout().toSeconds());
        listener = new PgChannelListener(dataSource, "reconcile_" + service.schema(), LISTEN_TIMEOUT, this::intentChanged)
                .start();
        LOG.infof("reconcile loop started with %d workers", settings.workers());
    }

    void stop(@Observes ShutdownEvent event) {
        if (leader != null) {
            leader.close();
        }
        stepDown();
    }

    private synchronized void stepDown() {
        if (listener != null) {
            listener.close();
            listener = null;
        }
        if (queue != null) {
            queue.close();
            queue = null;
        }
        cache.close();
    }

    private void intentChanged(List<String> keys) {
        WorkQueue queue = this.queue;
        if (queue == null) {
            return;
        }
        if (keys == null) {
            store.allKeys().await().atMost(Duration.ofSeconds(30)).forEach(queue::add);
        } else {
            keys.forEach(queue::add);
        }
    }

    private void objectChanged(HasMetadata object) {
        WorkQueue queue = this.queue;
        Map<String, String> labels = object.getMetadata().getLabels();
        if (queue != null && labels != null && CatalogInstance.KIND.equals(labels.get(Labels.INSTANCE_KIND))
                && labels.get(Labels.INSTANCE) != null) {
            queue.add(object.getMetadata().getNamespace() + "/" + labels.get(Labels.INSTANCE));
        }
    }
}
