package io.lakehouse.bench;

import static io.lakehouse.bench.Loops.parallel;
import static io.lakehouse.bench.Loops.sleepUntil;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/** The benchmarks' loops: a task over indexes on a few threads, and waiting for a moment. */
final class Loops {

  private Loops() {
  }

  /** Runs {@code task(0..n-1)} on {@code threads} threads, each index once; returns the wall time in seconds. */
  static double parallel(int n, int threads, IntConsumer task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicInteger next = new AtomicInteger();
    long t0 = System.nanoTime();
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      futures.add(pool.submit(() -> {
        for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
          task.accept(i);
        }
      }));
    }
    pool.shutdown();
    if (!pool.awaitTermination(15, TimeUnit.MINUTES)) {
      pool.shutdownNow();
      throw new IllegalStateException("a parallel step did not finish within 15 min");
    }
    for (Future<?> f : futures) {
      f.get();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  static void sleepUntil(long nanoTime) {
    long left = nanoTime - System.nanoTime();
    if (left > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
