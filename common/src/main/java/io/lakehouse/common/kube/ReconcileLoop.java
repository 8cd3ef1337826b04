package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.lakehouse.common.config.ReconcileSettings;
import io.lakehouse.common.events.TraceContext;
import io.lakehouse.common.metrics.LakehouseMetrics;
import io.lakehouse.common.outbox.PgChannelListener;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Feeds a service's work queue from the three sources of change: the database (intent, through the
 * instances table's NOTIFY trigger on channel {@code reconcile_<schema>}, and a full resync after each
 * (re)connection), and Kubernetes (informer events on every owned object, which is how drift is
 * noticed). Only the replica holding the leader lease ({@link LeaderLock}) watches and writes, and
 * each pass first checks that it still holds it.
 *
 * <p>Changes learnt elsewhere (an event a consumer took, on whichever replica its partition lives)
 * reach the leader through the same channel: {@link #wake} notifies it inside the caller's
 * transaction, so the trigger is committed with the change it reacts to.
 *
 * <p>A NOTIFY payload is {@code namespace/name}, followed by {@code " " + traceparent} when the change
 * was made in a trace (the triggers read {@link TraceContext#SETTING}, {@link #wake} adds the current
 * one): the pass then continues that trace ({@link WorkQueue}).
 */
public class ReconcileLoop implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ReconcileLoop.class);
    private static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(30);
    private static final String PASSES = "reconcile passes started";
    private static final String ERRORS = "reconcile passes that threw";

    private final Function<String, Duration> reconciler;
    private final InformerCache cache;
    private final Supplier<List<String>> allKeys;
    private final DataSource dataSource;
    private final Pool pool;
    private final ReconcileSettings settings;
    private final String channel;
    private final List<ResourceKind> kinds;
    private final Predicate<String> ownsKind;
    private final Tracer tracer;
    private volatile WorkQueue queue;
    /**
     * Instances the informers' first lists asked for, held until every cache has synced: a pass before that would
     * ask the API server for each object of a kind not listed yet (716 GETs while catalog-service restarted with
     * 1,176 catalogs, competing with the lists themselves). Null when nothing is held.
     */
    private volatile Set<String> held;
    private PgChannelListener listener;
    private volatile LeaderLock leader;
    /**
     * The watch events of instances whose pass is running, by instance key: an event may be the echo of a create of
     * that very pass arriving before the create's answer was recorded; once the pass ends, only the events that are
     * not echoes queue it again ({@link InformerCache#isEchoOfOwnCreate}).
     */
    private final Map<String, List<HasMetadata>> heldDuringPass = new ConcurrentHashMap<>();

    /**
     * @param reconciler one pass over {@code namespace/name}; returns when to look again, or null
     * @param allKeys every instance key, for the resync
     * @param schema the service's schema: names the NOTIFY channel and the leader lock
     * @param kinds the object kinds the service manages (watched by the cache)
     * @param ownsKind whether an instance kind ({@code lakehouse.io/kind} label) is the service's
     * @param tracer makes the passes' spans (Quarkus' {@link Tracer}, a no-op one when tracing is off)
     */
    public ReconcileLoop(Function<String, Duration> reconciler, InformerCache cache, Supplier<List<String>> allKeys,
            DataSource dataSource, Pool pool, ReconcileSettings settings, String schema, List<ResourceKind> kinds,
            Predicate<String> ownsKind, Tracer tracer) {
        this.reconciler = reconciler;
        this.cache = cache;
        this.allKeys = allKeys;
        this.dataSource = dataSource;
        this.pool = pool;
        this.settings = settings;
        this.channel = channelOf(schema);
        this.kinds = kinds;
        this.ownsKind = ownsKind;
        this.tracer = tracer;
        LakehouseMetrics.declare(LakehouseMetrics.RECONCILE_PASSES, PASSES);
        LakehouseMetrics.declare(LakehouseMetrics.RECONCILE_ERRORS, ERRORS);
        LakehouseMetrics.gauge(LakehouseMetrics.RECONCILE_QUEUE_DEPTH, "instances waiting for a pass or in one", null,
                () -> queue == null ? 0 : queue.depth());
        LakehouseMetrics.gauge(LakehouseMetrics.LEADER, "1 when this replica holds the service's lease", null,
                () -> leader != null && leader.isLeading() ? 1 : 0);
    }

    public void start() {
        if (!settings.enabled()) {
            return;
        }
        cache.onChange(this::objectChanged);
        cache.onDependentChange(key -> enqueue(key, SpanContext.getInvalid()));
        leader = new LeaderLock(dataSource, channel, settings.leaseRenewInterval(), settings.leaseDuration(),
                this::lead, this::stepDown).start();
    }

    /**
     * Has the leader reconcile these instances (e.g. something they depend on changed), whichever
     * replica leads: a NOTIFY on the loop's channel, sent when {@code client}'s transaction commits,
     * carrying the current trace.
     */
    public Uni<Void> wake(SqlClient client, Collection<String> keys) {
        return notify(client, channel, keys);
    }

    /** {@link #wake} for code that has no loop at hand: the loop of the service owning {@code schema}. */
    public static Uni<Void> wake(SqlClient client, String schema, Collection<String> keys) {
        return notify(client, channelOf(schema), keys);
    }

    /**
     * The channel a statement notifies to wake the loop of the service owning {@code schema} itself, with
     * {@code pg_notify(channel, key || }{@link #wakeSuffix()}{@code )} per instance key.
     */
    public static String channelOf(String schema) {
        return "reconcile_" + schema;
    }

    /** What follows the instance key in a wake's payload: the current trace, if any. */
    public static String wakeSuffix() {
        String traceparent = TraceContext.current();
        return traceparent == null ? "" : " " + traceparent;
    }

    private static Uni<Void> notify(SqlClient client, String channel, Collection<String> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return client.preparedQuery("SELECT pg_notify($1, key || $3) FROM unnest($2::text[]) AS key")
                .execute(Tuple.of(channel, keys.toArray(String[]::new), wakeSuffix()))
                .replaceWithVoid();
    }

    /** Steps down (the passes in flight finish first), then ends the lease for a quick successor. */
    @Override
    public void close() {
        if (leader != null) {
            leader.close();
        }
        stepDown();
    }

    private void enqueue(String key, SpanContext trigger) {
        Set<String> waiting = held;
        if (waiting != null) {
            waiting.add(key);
            if (held != null) {
                return; // queued by lead() once the caches synced; else lead() released them already: queue it here
            }
        }
        WorkQueue current = this.queue;
        if (current != null) {
            current.add(key, trigger);
        }
    }

    /** A key of a pass over every instance: behind the keys something asked for (WorkQueue's lanes). */
    private void enqueueInBackground(String key) {
        WorkQueue current = this.queue;
        if (current != null) {
            current.addInBackground(key);
        }
    }

    /** One pass, unless this replica may no longer lead: the next leader resyncs every instance. */
    private Duration pass(String key) {
        if (!leader.isLeading()) {
            LOG.debugf("not reconciling %s: the leader lease is not held", key);
            return null;
        }
        LakehouseMetrics.increment(LakehouseMetrics.RECONCILE_PASSES, PASSES);
        heldDuringPass.put(key, new ArrayList<>());
        try {
            return reconciler.apply(key);
        } catch (RuntimeException e) {
            LakehouseMetrics.increment(LakehouseMetrics.RECONCILE_ERRORS, ERRORS);
            throw e;
        } finally {
            releaseHeld(key);
        }
    }

    /** The pass of {@code key} ended: what the watch told meanwhile queues it again, unless it was only its echoes. */
    private void releaseHeld(String key) {
        List<HasMetadata> held = heldDuringPass.remove(key);
        boolean news = false;
        for (HasMetadata object : held == null ? List.<HasMetadata>of() : held) {
            news |= !cache.isEchoOfOwnCreate(object); // every one asked: each echo is forgotten once told
        }
        if (news) {
            enqueue(key, SpanContext.getInvalid());
        }
    }

    private synchronized void lead() {
        Set<String> waiting = ConcurrentHashMap.newKeySet();
        held = waiting;
        queue = new WorkQueue("reconcile", settings.workers(), this::pass, tracer);
        try {
            cache.start(kinds, settings.cacheSyncTimeout().toSeconds());
        } finally {
            held = null;
        }
        waiting.forEach(this::enqueueInBackground);
        listener = new PgChannelListener(pool, channel, LISTEN_TIMEOUT, this::intentChanged).start();
        LOG.infof("reconcile loop started with %d workers (%d instances queued by the first lists)", settings.workers(),
                waiting.size());
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

    private void intentChanged(List<String> payloads) {
        if (payloads == null) {
            allKeys.get().forEach(this::enqueueInBackground);
            return;
        }
        for (String payload : payloads) {
            int space = payload.indexOf(' ');
            if (space < 0) {
                enqueue(payload, SpanContext.getInvalid());
            } else {
                enqueue(payload.substring(0, space), TraceContext.parse(payload.substring(space + 1)));
            }
        }
    }

    private void objectChanged(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        if (labels != null && labels.get(Labels.INSTANCE) != null && labels.get(Labels.INSTANCE_KIND) != null
                && ownsKind.test(labels.get(Labels.INSTANCE_KIND))) {
            if (cache.isEchoOfOwnCreate(object)) {
                return; // the pass that created it saw it
            }
            String key = object.getMetadata().getNamespace() + "/" + labels.get(Labels.INSTANCE);
            if (heldDuringPass.computeIfPresent(key, (k, held) -> {
                held.add(object);
                return held;
            }) == null) {
                enqueue(key, SpanContext.getInvalid());
            }
        }
    }
}
