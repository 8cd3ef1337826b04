package io.lakehouse.common.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Hands Quarkus' meter registry (the one /q/metrics serves) to {@link LakehouseMetrics} at each start. */
@ApplicationScoped
class MetricsStartup {

    void start(@Observes @Priority(1) StartupEvent event, MeterRegistry registry) {
        LakehouseMetrics.use(registry);
    }
}
