package io.lakehouse.common.kube;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * A deduplicating work queue of keys, like client-go's: a key waits at most once, is never processed
 * by two workers at the same time, and a key added while it is processed runs again afterwards.
 * Failures retry with per-key exponential backoff. {@link #close()} lets the passes in flight finish.
 */
public class WorkQueue implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(WorkQueue.class);
    private static final Duration BASE_DELAY = Duration.ofMillis(200);
    private static final Duration MAX_DELAY = Duration.ofSeconds(60);
    /** How often an idle worker looks whether the queue was closed. */
    private static final long IDLE_POLL_MS = 100;
    /** The longest {@link #close()} waits for passes in flight before interrupting them. */
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);

    private final Function<String, Duration> handler;
    private final BlockingQueue<String> ready = new LinkedBlockingQueue<>();
    private final Set<String> dirty = new HashSet<>();
    private final Set<String> processing = new HashSet<>();
    private final Map<String, Integer> failures = new HashMap<>();
    private final ScheduledExecutorService timers;
    private final Thread[] workers;
    private volatile boolean running = true;

    /**
     * @param handler processes a key; returns a delay after which to look at the key again, or
     *     {@code null} when it is done. A thrown exception retries with backoff.
     */
    public WorkQueue(String name, int workerCount, Function<String, Duration> handler) {
        this.handler = handler;
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, name + "-timer"));
        this.workers = new Thread[workerCount];
        for (int i = 0; i < workerCount; i++) {
            workers[i] = daemon(this::work, name + "-" + i);
            workers[i].start();
        }
    }

    public synchronized void add(String key) {
        if (!running || !dirty.add(key)) {
            return;
        }
        if (!processing.contains(key)) {
            ready.add(key);
        }
    }

    public void addAfter(String key, Duration delay) {
        timers.schedule(() -> add(key), delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Keys waiting or being processed: zero when everything has converged. */
    public synchronized int depth() {
        return dirty.size() + processing.size();
    }

    private void work() {
        while (running) {
            String key;
            try {
                key = ready.poll(IDLE_POLL_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (key == null || !running) {
                continue;
            }
            synchronized (this) {
                dirty.remove(key);
                processing.add(key);
            }
            process(key);
            synchronized (this) {
                processing.remove(key);
                if (dirty.contains(key)) {
                    ready.add(key);
                }
            }
        }
    }

    private void process(String key) {
        try {
            Duration again = handler.apply(key);
            synchronized (this) {
                failures.remove(key);
            }
            if (again != null) {
                addAfter(key, again);
            }
        } catch (RuntimeException e) {
            int n;
            synchronized (this) {
                n = failures.merge(key, 1, Integer::sum);
            }
            long delay = Math.min(MAX_DELAY.toMillis(), BASE_DELAY.toMillis() << Math.min(n - 1, 16));
            LOG.warnf("reconcile of %s failed (attempt %d), retrying in %d ms: %s", key, n, delay, e.getMessage());
            addAfter(key, Duration.ofMillis(delay));
        }
    }

    /**
     * Takes no more keys and returns once the passes in flight are done (a stepping-down leader must
     * not write after it returns), interrupting those still running after {@code DRAIN_TIMEOUT}.
     */
    @Override
    public void close() {
        running = false;
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

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
