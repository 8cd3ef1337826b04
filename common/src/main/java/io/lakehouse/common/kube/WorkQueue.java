package io.lakehouse.common.kube;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * A deduplicating work queue of keys, like client-go's: a key waits at most once, is never processed
 * by two workers at the same time, and a key added while it is processed runs again afterwards.
 * Failures retry with per-key exponential backoff. {@link #close()} lets the passes in flight finish.
 *
 * <p>A key's latest pass decides when to look at it again: the delay it returns (or its failure's backoff) replaces
 * the one an earlier pass asked for. A teardown that asked to look again in 2 s and then finished in the pass its
 * objects' deletions woke ran a third pass for nothing.
 *
 * <p>A key may be added with the span of what asked for it (an API request, a consumed event): the
 * pass runs in a span that continues that trace ({@link ReconcileSpan}). Triggers that arrive while the
 * key waits are coalesced with it (one pass, linked to each); those arriving during a pass go with
 * the next one.
 *
 * <p>Two lanes: a key added in bulk ({@link #addInBackground}: a new leader's or a reconnected listener's pass
 * over every instance) waits behind every other (a request, an event, a watch change, a retry), so that a
 * create right after a restart does not wait for thousands of instances that did not change. Each lane is
 * FIFO; a background key added again in the front lane moves there.
 */
public class WorkQueue implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(WorkQueue.class);
    private static final Duration BASE_DELAY = Duration.ofMillis(200);
    private static final Duration MAX_DELAY = Duration.ofSeconds(60);
    /** The longest {@link #close()} waits for passes in flight before interrupting them. */
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);

    /** Enough to find every trace that asked for a pass; more only make the span bigger. */
    static final int MAX_TRIGGERS = 32;

    private final String name;
    private final Function<String, Duration> handler;
    private final Tracer tracer;
    /**
     * The keys waiting, front lane first. An idle worker waits on this queue's monitor without a timeout until a key
     * comes or {@link #close()} wakes it, so an idle service's workers cost no CPU (P7).
     */
    private final ArrayDeque<String> ready = new ArrayDeque<>();
    private final LinkedHashSet<String> background = new LinkedHashSet<>();
    private final Set<String> dirty = new HashSet<>();
    private final Set<String> processing = new HashSet<>();
    private final Map<String, Integer> failures = new HashMap<>();
    /** The spans that asked for a waiting key, valid ones only; removed when its pass starts. */
    private final Map<String, List<SpanContext>> triggers = new HashMap<>();
    /** Per key, the token of the look-again its latest pass asked for; a timer whose token was replaced does nothing. */
    private final Map<String, Object> lookAgain = new HashMap<>();
    private final ScheduledExecutorService timers;
    private final Thread[] workers;
    private volatile boolean running = true;

    /**
     * @param handler processes a key; returns a delay after which to look at the key again, or
     *     {@code null} when it is done. A thrown exception retries with backoff.
     */
    public WorkQueue(String name, int workerCount, Function<String, Duration> handler) {
        this(name, workerCount, handler, OpenTelemetry.noop().getTracer(name));
    }

    /** @param tracer makes each pass's span (Quarkus' {@link Tracer}: a no-op one when tracing is off) */
    public WorkQueue(String name, int workerCount, Function<String, Duration> handler, Tracer tracer) {
        this.name = name;
        this.handler = handler;
        this.tracer = tracer;
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> BackgroundThreads.daemon(r, name + "-timer"));
        this.workers = new Thread[workerCount];
        for (int i = 0; i < workerCount; i++) {
            workers[i] = BackgroundThreads.daemon(this::work, name + "-" + i);
            workers[i].start();
        }
    }

    public void add(String key) {
        add(key, SpanContext.getInvalid());
    }

    /** Queues {@code key}, its pass continuing {@code trigger}'s trace (ignored when not valid). */
    public synchronized void add(String key, SpanContext trigger) {
        if (!running) {
            return;
        }
        if (trigger.isValid()) {
            List<SpanContext> why = triggers.computeIfAbsent(key, k -> new ArrayList<>(1));
            if (why.size() < MAX_TRIGGERS && !why.contains(trigger)) {
                why.add(trigger);
            }
        }
        if (!dirty.add(key)) {
            if (background.remove(key)) {
                ready.add(key);
            }
            return;
        }
        if (!processing.contains(key)) {
            ready.add(key);
            notify();
        }
    }

    /** Queues {@code key} behind every key added by {@link #add}: for a pass over every instance. */
    public synchronized void addInBackground(String key) {
        if (!running || !dirty.add(key)) {
            return;
        }
        if (!processing.contains(key)) {
            background.add(key);
            notify();
        }
    }

    /** Queues {@code key} after {@code delay} unless a later pass of it asks otherwise; null: not again. */
    private void lookAgainAfter(String key, Duration delay) {
        Object token = new Object();
        synchronized (this) {
            if (delay == null) {
                lookAgain.remove(key);
                return;
            }
            lookAgain.put(key, token);
        }
        timers.schedule(() -> {
            if (stillAsked(key, token)) {
                add(key);
            }
        }, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private synchronized boolean stillAsked(String key, Object token) {
        return lookAgain.remove(key, token);
    }

    /** Keys waiting or being processed: zero when everything has converged. */
    public synchronized int depth() {
        return dirty.size() + processing.size();
    }

    private void work() {
        while (true) {
            String key;
            List<SpanContext> why;
            synchronized (this) {
                try {
                    key = next();
                } catch (InterruptedException e) {
                    return;
                }
                if (key == null) {
                    return;
                }
                dirty.remove(key);
                processing.add(key);
                why = triggers.remove(key);
            }
            process(key, why == null ? List.of() : why);
            synchronized (this) {
                processing.remove(key);
                if (dirty.contains(key)) {
                    ready.add(key); // asked for again during its pass: in the front lane, whatever asked
                    notify();
                }
            }
        }
    }

    /** The next key, front lane first, waiting for one; null once closed. Holds the monitor. */
    private String next() throws InterruptedException {
        while (running) {
            String key = ready.poll();
            if (key == null && !background.isEmpty()) {
                Iterator<String> first = background.iterator();
                key = first.next();
                first.remove();
            }
            if (key != null) {
                return key;
            }
            wait();
        }
        return null;
    }

    private void process(String key, List<SpanContext> why) {
        try {
            Duration again = ReconcileSpan.run(tracer, name, key, why, () -> handler.apply(key));
            synchronized (this) {
                failures.remove(key);
            }
            lookAgainAfter(key, again);
        } catch (RuntimeException e) {
            int n;
            synchronized (this) {
                n = failures.merge(key, 1, Integer::sum);
            }
            long delay = Math.min(MAX_DELAY.toMillis(), BASE_DELAY.toMillis() << Math.min(n - 1, 16));
            LOG.warnf("reconcile of %s failed (attempt %d), retrying in %d ms: %s", key, n, delay, e.getMessage());
            lookAgainAfter(key, Duration.ofMillis(delay));
        }
    }

    /**
     * Takes no more keys and returns once the passes in flight are done (a stepping-down leader must
     * not write after it returns), interrupting those still running after {@code DRAIN_TIMEOUT}.
     */
    @Override
    public void close() {
        synchronized (this) {
            running = false; // add() queues nothing after this, and each worker ends at its next take
            notifyAll();
        }
        timers.shutdownNow();
        long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
        try {
            for (Thread worker : workers) {
                worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Thread worker : workers) {
            if (worker.isAlive()) {
                LOG.warnf("a pass of %s is still running after %s: interrupting it", worker.getName(), DRAIN_TIMEOUT);
                worker.interrupt();
            }
        }
    }
}
