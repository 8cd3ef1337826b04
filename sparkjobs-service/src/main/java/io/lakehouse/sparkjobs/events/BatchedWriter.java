package io.lakehouse.sparkjobs.events;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.jboss.logging.Logger;

/**
 * One thread writing items in the order they were submitted: the items that queued up while a transaction ran
 * share the next one, in their order. Nothing waits for company (an item alone is written at once), so batching
 * costs no latency; it saves transactions when changes arrive together. A failed transaction is retried item by
 * item, so a bad item costs only itself. A full queue blocks the submitter (back-pressure, nothing dropped).
 *
 * @param <T> what is written
 * @param <R> what writing one item found out
 */
final class BatchedWriter<T, R> {

    /** What the writer does with each item. */
    interface Steps<T, R> {
        /** The item's statements, in the transaction it shares with the items queued with it. */
        Uni<R> write(SqlConnection tx, T item);

        /** After the commit of the item's transaction (on the writer's thread). */
        void written(T item, R result);

        /** The item's own transaction failed: nothing of it was written. */
        void failed(T item, RuntimeException e);
    }

    private static final Logger LOG = Logger.getLogger(BatchedWriter.class);

    private final Pool pool;
    private final int maxBatch;
    private final Steps<T, R> steps;
    private final BlockingQueue<T> queue;
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param capacity items waiting at most before {@link #submit} blocks
     * @param maxBatch items in one transaction at most (a transaction's locks are held until its end)
     */
    BatchedWriter(String name, Pool pool, int capacity, int maxBatch, Steps<T, R> steps) {
        this.pool = pool;
        this.maxBatch = maxBatch;
        this.steps = steps;
        this.queue = new LinkedBlockingQueue<>(capacity);
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues the item after every item submitted before it. */
    void submit(T item) {
        try {
            queue.put(item);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while queueing a write", e);
        }
    }

    /** Items waiting for a transaction (not counting those of the transaction under way). */
    int queued() {
        return queue.size();
    }

    /** Stops after the transaction under way; what still waits is not written (the caller's source repeats it). */
    void stop() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        while (running) {
            List<T> batch = new ArrayList<>();
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                return;
            }
            queue.drainTo(batch, maxBatch - 1);
            write(batch);
        }
    }

    private void write(List<T> batch) {
        List<R> results;
        try {
            results = pool.withTransaction(tx -> all(tx, batch)).await().indefinitely();
        } catch (RuntimeException e) {
            if (batch.size() == 1) {
                steps.failed(batch.get(0), e);
                return;
            }
            // Rolled back whole: each item alone, so that one bad item does not keep the others out.
            batch.forEach(item -> write(List.of(item)));
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            try {
                steps.written(batch.get(i), results.get(i));
            } catch (RuntimeException e) {
                LOG.warnf("after a committed write: %s", e.getMessage());
            }
        }
    }

    private Uni<List<R>> all(SqlConnection tx, List<T> batch) {
        Uni<List<R>> chain = Uni.createFrom().<List<R>>item(new ArrayList<>(batch.size()));
        for (T item : batch) {
            chain = chain.chain(results -> steps.write(tx, item).map(result -> {
                results.add(result);
                return results;
            }));
        }
        return chain;
    }
}
