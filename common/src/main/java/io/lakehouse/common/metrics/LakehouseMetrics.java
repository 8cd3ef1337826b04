package io.lakehouse.common.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;

/**
 * The metrics operators watch (docs/install.md, the chart's PrometheusRule), in one place: names as
 * Prometheus shows them on {@code /q/metrics}. Registered in Micrometer's global registry, to which
 * Quarkus adds its Prometheus registry, so the plain classes of common (the reconcile loop, the relay)
 * report without a registry passed through every service's producers.
 *
 * <ul>
 *   <li>{@code lakehouse_reconcile_passes_total}, {@code lakehouse_reconcile_errors_total}: passes of the
 *       service's reconcile loop, and those that threw (retried with backoff);
 *   <li>{@code lakehouse_reconcile_queue_depth}: instances waiting for a pass or in one;
 *   <li>{@code lakehouse_leader}: 1 on the replica that holds the service's lease, else 0;
 *   <li>{@code lakehouse_outbox_backlog}, {@code lakehouse_outbox_parked}: outbox rows not yet published,
 *       and those Kafka can never take; {@code lakehouse_outbox_oldest_age_seconds}: age of the oldest
 *       unpublished row (0 when none): a growing age is an outbox that does not reach Kafka;
 *   <li>{@code lakehouse_consumer_dead_letters_total{topic}}: events a consumer sent to the topic's
 *       dead-letter topic (malformed, or failing after every retry).
 * </ul>
 */
public final class LakehouseMetrics {

    public static final String RECONCILE_PASSES = "lakehouse.reconcile.passes";
    public static final String RECONCILE_ERRORS = "lakehouse.reconcile.errors";
    public static final String RECONCILE_QUEUE_DEPTH = "lakehouse.reconcile.queue.depth";
    public static final String LEADER = "lakehouse.leader";
    public static final String OUTBOX_BACKLOG = "lakehouse.outbox.backlog";
    public static final String OUTBOX_PARKED = "lakehouse.outbox.parked";
    public static final String OUTBOX_OLDEST_AGE = "lakehouse.outbox.oldest.age";
    public static final String DEAD_LETTERS = "lakehouse.consumer.dead.letters";

    private static final Map<String, AtomicReference<DoubleSupplier>> SOURCES = new ConcurrentHashMap<>();

    private LakehouseMetrics() {
    }

    static MeterRegistry registry() {
        return Metrics.globalRegistry;
    }

    public static Counter counter(String name, String description, String... tags) {
        return Counter.builder(name).description(description).tags(tags).register(registry());
    }

    /**
     * A gauge read from {@code value} at each scrape. Micrometer keeps the first registration of a name: a
     * later one (the service's loop made anew, as when a test restarts the application) replaces the source.
     */
    public static void gauge(String name, String description, String baseUnit, DoubleSupplier value) {
        AtomicReference<DoubleSupplier> source = SOURCES.computeIfAbsent(name, n -> {
            AtomicReference<DoubleSupplier> ref = new AtomicReference<>();
            Gauge.builder(n, ref, r -> r.get().getAsDouble()).description(description).baseUnit(baseUnit)
                    .register(registry());
            return ref;
        });
        source.set(value);
    }
}
