package io.lakehouse.notebooks.reconcile;

import io.agroal.api.AgroalDataSource;
import io.lakehouse.common.config.ReconcileSettings;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.instances.InstanceReconciler;
import io.lakehouse.common.instances.InstanceStore;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.notebooks.domain.NotebookKinds;
import io.lakehouse.notebooks.kinds.jupyterhub.HubInstance;
import io.opentelemetry.api.trace.Tracer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;

/** The hubs' reconcile loop (see {@link io.lakehouse.common.kube.ReconcileLoop}), started with the service. */
@ApplicationScoped
public class ReconcileLoop {

    private final io.lakehouse.common.kube.ReconcileLoop loop;

    ReconcileLoop(InstanceReconciler<NotebookContext> reconciler, InformerCache cache, InstanceStore store,
            AgroalDataSource dataSource, Pool pool, ReconcileSettings settings, ServiceSettings service, Tracer tracer) {
        this.loop = new io.lakehouse.common.kube.ReconcileLoop(reconciler::reconcile, cache,
                () -> store.allKeys().await().atMost(Duration.ofSeconds(30)), dataSource, pool, settings, service.schema(),
                NotebookKinds.MANAGED, HubInstance.KIND::equals, tracer);
    }

    void start(@Observes StartupEvent event) {
        loop.start();
    }

    void stop(@Observes ShutdownEvent event) {
        loop.close();
    }
}
