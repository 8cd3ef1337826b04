package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Lists again what an {@link InformerCache} watches when its watch was down, and replaces an informer
 * that stopped. Why: fabric8 resumes a dropped watch from its last resourceVersion and trusts the server
 * to replay what happened meanwhile; the mock API server (and a server whose history was compacted
 * without a 410) does not, so an object deleted while the watch was down would stay in the cache for
 * good and its drift would never be repaired. Only a watch that went down on a failure is relisted (one
 * LIST per kind per failure): fabric8 restarts every watch by itself every 5-10 minutes and resumes it
 * without a gap, which is no reason to list. A relist that fails is retried with fabric8's backoff until
 * it syncs, never in a loop.
 */
final class InformerWatchdog implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(InformerWatchdog.class);
    private static final long TICK_MS = 500;
    private static final long MAX_BACKOFF_MS = 60_000;

    private final InformerCache cache;
    private final List<ResourceKind> kinds;
    private final Map<String, KindState> states = new ConcurrentHashMap<>();
    /** Relists in flight: they retry until they sync, so they are closed with the watchdog. */
    private final Map<String, SharedIndexInformer<HasMetadata>> relists = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "informer-watchdog");
                thread.setDaemon(true);
                return thread;
            });

    /** What the watchdog knows of one kind's informer. */
    private static final class KindState {
        volatile boolean watchWasDown;
        volatile boolean relisting;
        volatile int failures;
        volatile long notBefore;
    }

    InformerWatchdog(InformerCache cache, List<ResourceKind> kinds) {
        this.cache = cache;
        this.kinds = List.copyOf(kinds);
        kinds.forEach(kind -> states.put(kind.key(), new KindState()));
    }

    InformerWatchdog start() {
        timer.scheduleWithFixedDelay(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
        return this;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        relists.values().forEach(SharedIndexInformer::close);
        relists.clear();
    }

    private void tick() {
        for (ResourceKind kind : kinds) {
            try {
                check(kind);
            } catch (RuntimeException e) {
                LOG.warnf("informer check of %s failed: %s", kind.key(), e.toString());
            }
        }
    }

    private void check(ResourceKind kind) {
        SharedIndexInformer<HasMetadata> informer = cache.informerOf(kind);
        KindState state = states.get(kind.key());
        if (informer == null || state.relisting) {
            return;
        }
        boolean stopped = informer.stopped().toCompletableFuture().isDone();
        if (cache.takeFailure(kind)) {
            state.watchWasDown = true; // not fabric8's own periodic watch restart, which resumes without a gap
        }
        boolean watching = informer.isWatching();
        if ((stopped || (state.watchWasDown && watching)) && System.currentTimeMillis() >= state.notBefore) {
            relist(kind, state, stopped ? "stopped" : "watch was down");
        }
    }

    private void relist(ResourceKind kind, KindState state, String why) {
        state.relisting = true;
        LOG.infof("listing %s again: its %s", kind.key(), why);
        SharedIndexInformer<HasMetadata> fresh = cache.newInformer(kind);
        relists.put(kind.key(), fresh);
        fresh.start().whenComplete((ignored, failure) -> {
            relists.remove(kind.key(), fresh);
            if (failure == null && cache.replace(kind, fresh)) {
                state.watchWasDown = false;
                state.failures = 0;
            } else {
                fresh.close();
                state.failures++;
                state.notBefore = System.currentTimeMillis() + backoffMs(state.failures);
            }
            state.relisting = false;
        });
    }

    static long backoffMs(int failures) {
        return Math.min(MAX_BACKOFF_MS, 1000L << Math.min(failures - 1, 16));
    }
}
