package io.lakehouse.bench;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;

/**
 * The two ways P1 and P2 load an API: open loop (requests start at a fixed rate whatever the answers' speed; latency
 * counted from the moment a request was due, so a slow answer that delays the next ones shows, no coordinated
 * omission) and saturation (a few threads back to back for a while: the throughput).
 */
final class OpenLoop {

  /** Enough for 200 req/s with answers up to ~1 s; beyond that the queueing shows in the latency, as it should. */
  private static final int THREADS = 200;

  private OpenLoop() {
  }

  /**
   * What a loop measured: latencies of the requests answered, requests sent, those that failed ({@code request}
   * answered false, threw, or had no answer when the loop gave up), and the seconds it took.
   */
  record Result(Stats stats, int sent, int failed, double seconds) {

    double perSecond() {
      return seconds <= 0 ? 0 : stats.count() / seconds;
    }
  }

  /**
   * {@code rate × seconds} requests, request {@code i} due at {@code i / rate} s; {@code request(i)} answers whether
   * the answer was the expected one. Bounded: requests not done 60 s after the last was due are given up.
   */
  static Result atRate(String name, double rate, int seconds, IntPredicate request) throws InterruptedException {
    int n = (int) Math.round(rate * seconds);
    Stats stats = new Stats(name);
    long[] latency = new long[n];
    AtomicInteger failed = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS, daemon("open-loop"));
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      long due = t0 + (long) (i * 1e9 / rate);
      Loops.sleepUntil(due);
      int index = i;
      pool.execute(() -> {
        boolean ok = call(request, index);
        long took = System.nanoTime() - due;
        latency[index] = took;
        stats.add(took);
        failed.addAndGet(ok ? 0 : 1);
      });
    }
    pool.shutdown();
    if (!pool.awaitTermination(60, TimeUnit.SECONDS)) {
      pool.shutdownNow();
    }
    BenchCli.log("open-loop", "%s: max ms per second of the run %s", name, perSecondMax(latency, rate));
    return new Result(stats, n, failed.get() + n - stats.count(), (System.nanoTime() - t0) / 1e9);
  }

  /** The slowest answer of each second, in order: whether the tail is one burst (a start, a pause) or spread out. */
  private static String perSecondMax(long[] latency, double rate) {
    StringBuilder out = new StringBuilder();
    int perSecond = Math.max(1, (int) Math.round(rate));
    for (int from = 0; from < latency.length; from += perSecond) {
      long max = 0;
      for (int i = from; i < Math.min(latency.length, from + perSecond); i++) {
        max = Math.max(max, latency[i]);
      }
      out.append(from == 0 ? "" : " ").append(Stats.ms(max / 1e6));
    }
    return out.toString();
  }

  /** {@code threads} threads calling {@code request(i)} back to back for {@code seconds}: the saturation rate. */
  static Result saturation(String name, int threads, int seconds, IntPredicate request) throws InterruptedException {
    Stats stats = new Stats(name);
    AtomicInteger next = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    AtomicLong lastEnd = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads, daemon("saturation"));
    long t0 = System.nanoTime();
    long end = t0 + TimeUnit.SECONDS.toNanos(seconds);
    for (int t = 0; t < threads; t++) {
      pool.execute(() -> {
        while (System.nanoTime() < end) {
          long start = System.nanoTime();
          boolean ok = call(request, next.getAndIncrement());
          long done = System.nanoTime();
          stats.add(done - start);
          failed.addAndGet(ok ? 0 : 1);
          lastEnd.accumulateAndGet(done, Math::max);
        }
      });
    }
    pool.shutdown();
    if (!pool.awaitTermination(seconds + 60L, TimeUnit.SECONDS)) {
      pool.shutdownNow();
    }
    return new Result(stats, stats.count(), failed.get(), (Math.max(lastEnd.get(), end) - t0) / 1e9);
  }

  private static boolean call(IntPredicate request, int i) {
    try {
      return request.test(i);
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
