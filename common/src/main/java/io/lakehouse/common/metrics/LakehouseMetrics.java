package io.lakehouse.common.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;

/**
 * The metrics operators watch (docs/install.md, the chart's PrometheusRule), in one place: names as
 * Prometheus shows them on {@code /q/metrics}. The plain classes of common (the reconcile loop, the relay)
 * report here without a registry passed through every service's producers; {@link MetricsStartup} hands
 * over Quarkus' registry when the application starts (again after a restart, as tests do).
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

    /** A gauge's description, unit and current source (a holder, so a new source needs no new gauge). */
    private record GaugeSource(String description, String baseUnit, AtomicReference<DoubleSupplier> value) {}

    private static final Map<String, GaugeSource> GAUGES = new ConcurrentHashMap<>();
    /** Counters shown at 0 before their first event (an alert on their rate needs the series). */
    private static final Map<String, String> DECLARED = new ConcurrentHashMap<>();
    /**
     * Quarkus' registry, once started. Not Micrometer's global registry: it outlives an application restarted
     * in the same JVM (tests), and the first gauge of a name registered there would shadow every later one.
     */
    private static volatile MeterRegistry registry;

    private LakehouseMetrics() {
    }

    /** The application's registry, from now on; the gauges known so far are registered there. */
    static void use(MeterRegistry applicationRegistry) {
        registry = applicationRegistry;
        GAUGES.forEach(LakehouseMetrics::register);
        DECLARED.forEach((name, description) -> Counter.builder(name).description(description).register(applicationRegistry));
    }

    /** A counter without tags that exists, at 0, before its first {@link #increment}. */
    public static void declare(String name, String description) {
        DECLARED.put(name, description);
        MeterRegistry current = registry;
        if (current != null) {
            Counter.builder(name).description(description).register(current);
        }
    }

    /** Adds one to a counter (looked up at each call: the registry may have changed since the last). */
    public static void increment(String name, String description, String... tags) {
        MeterRegistry current = registry;
        if (current != null) {
            Counter.builder(name).description(description).tags(tags).register(current).increment();
        }
    }

    /**
     * A gauge read from {@code value} at each scrape; a later call for the same name (the service's loop
     * made anew) replaces the source.
     */
    public static void gauge(String name, String description, String baseUnit, DoubleSupplier value) {
        GaugeSource source = GAUGES.computeIfAbsent(name, n -> new GaugeSource(description, baseUnit, new AtomicReference<>()));
        source.value().set(value);
        register(name, source);
    }

    private static void register(String name, GaugeSource source) {
        MeterRegistry current = registry;
        if (current != null) {
            // A gauge of this name left by an earlier start reads that start's holder: replace it.
            current.find(name).gauges().forEach(current::remove);
            Gauge.builder(name, source.value(), r -> r.get().getAsDouble()).description(source.description())
                    .baseUnit(source.baseUnit()).register(current);
        }
    }
}
