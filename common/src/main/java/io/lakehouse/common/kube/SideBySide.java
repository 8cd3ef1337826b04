package io.lakehouse.common.kube;

import io.opentelemetry.context.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the calls of one reconcile pass that do not depend on each other at the same time, so that their round trips
 * to the API server overlap instead of adding up (an instance's Secrets after its root; its Deployment, Service and
 * Ingress after those). The caller runs the first call itself and waits for all of them, failed or not, before it
 * goes on: a pass never ends with one of its writes still in flight. A few shared daemon threads take the others;
 * when they are all busy (every reconcile worker fanning out at once) the caller runs the call itself, so the load on
 * the API server stays bounded and nothing waits for a thread. The threads end after a short idle time: an idle service keeps none.
 */
public final class SideBySide {

    private static final int THREADS = 8;
    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final ExecutorService POOL = new ThreadPoolExecutor(0, THREADS, 30, TimeUnit.SECONDS,
            new SynchronousQueue<>(), SideBySide::thread, new ThreadPoolExecutor.CallerRunsPolicy());

    private SideBySide() {}

    /**
     * Runs every call, the first on this thread, and returns when all have ended. The first failure in the list's
     * order is thrown as it was raised (the others' are added to it as suppressed); the calls see this thread's
     * tracing context.
     */
    public static void run(List<Runnable> calls) {
        if (calls.size() <= 1) {
            calls.forEach(Runnable::run);
            return;
        }
        Context context = Context.current();
        List<CompletableFuture<Void>> others = new ArrayList<>(calls.size() - 1);
        for (Runnable call : calls.subList(1, calls.size())) {
            others.add(CompletableFuture.runAsync(context.wrap(call), POOL));
        }
        List<Throwable> failures = new ArrayList<>();
        try {
            calls.get(0).run();
        } catch (RuntimeException | Error e) {
            failures.add(e);
        }
        for (CompletableFuture<Void> other : others) {
            try {
                other.join();
            } catch (CompletionException e) {
                failures.add(e.getCause() == null ? e : e.getCause());
            }
        }
        if (!failures.isEmpty()) {
            Throwable first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            if (first instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) first; // a Runnable throws nothing else
        }
    }

    private static Thread thread(Runnable task) {
        return BackgroundThreads.daemon(task, "reconcile-apply-" + COUNT.incrementAndGet());
    }
}
