package io.lakehouse.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * P4, P3 under sustained creation on catalog-service: an open loop of {@code --p4-rate} catalogs/s (50) for
 * {@code --p4-seconds} (10; the bar's window is 300), each timed from the moment its POST was due until the
 * benchmark's own informers have seen all 7 base objects (as P3): p99 ≤ 1 s. The catalogs go to namespaces of their
 * own ({@code all-<run>-p4-N}), so the other figures' counts and Ready polling do not include them.
 */
final class SustainedBench {

  private static final int NAMESPACES = 5;
  /** A catalog whose objects did not all appear within this is counted as failed. */
  private static final long GIVE_UP_SECONDS = 30;

  private final AllRun r;

  SustainedBench(AllRun r) {
    this.r = r;
  }

  /** The catalogs it created (they stay: the later figures count them). */
  int measure() throws Exception {
    int rate = r.opt("p4-rate", 50);
    int seconds = r.opt("p4-seconds", 10);
    List<String> namespaces = new ArrayList<>();
    List<ObjectWatch> watches = new ArrayList<>();
    try {
      for (int i = 0; i < NAMESPACES; i++) {
        String ns = Stats.f("all-%s-p4-%d", r.run, i);
        Buckets.namespace(r.kube, ns);
        namespaces.add(ns);
        watches.add(new ObjectWatch(r.kube, ns));
      }
      AtomicInteger created = new AtomicInteger();
      BenchCli.log("all", "P4: %d catalogs/s for %d s over %d namespaces", rate, seconds, NAMESPACES);
      OpenLoop.Result result = OpenLoop.atRate("P4 catalog", rate, seconds, i -> {
        String ns = namespaces.get(i % NAMESPACES);
        String name = Stats.f("s%05d", i);
        if (r.api("catalog").createCatalog(ns, name, Buckets.secret(ns)).statusCode() != 201) {
          return false;
        }
        created.incrementAndGet();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GIVE_UP_SECONDS);
        try {
          return watches.get(i % NAMESPACES).awaitAll(ObjectWatch.baseObjects(name), deadline) >= 0;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      });
      double p99 = result.stats().percentileMs(99);
      r.row("P4", "catalog", Stats.f("POST → all 7 base objects seen, open loop %d catalogs/s for %d s: p99 (p50;"
          + " failed)", rate, seconds), "≤ 1 s", Stats.f("%s ms (%s; %d of %d failed)", Stats.ms(p99),
          Stats.ms(result.stats().percentileMs(50)), result.failed(), result.sent()),
          result.failed() == 0 && p99 <= 1000, true);
      awaitReady(namespaces, created.get(), r.opt("ready-timeout-seconds", 600));
      return created.get();
    } finally {
      watches.forEach(ObjectWatch::close);
    }
  }

  /** The next figures start from a converged system: every catalog of the loop Ready (polled every second). */
  private void awaitReady(List<String> namespaces, int n, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      int ready = r.readyCatalogs(namespaces);
      if (ready >= n) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(Stats.f("P4: only %d of %d catalogs Ready after %d s", ready, n, seconds));
      }
      Thread.sleep(1000);
    }
  }
}
