package io.lakehouse.bench;

import java.util.List;
import java.util.function.IntPredicate;

/**
 * P1, the read API of one service: GET one instance and GET a page of a list, alternately, in an open loop at
 * {@code --p1-rate} req/s (200) for {@code --p1-seconds} (10): p99 ≤ 25 ms; then {@code --sat-threads} (8) threads
 * back to back for {@code --sat-seconds} (5): ≥ 2,000 req/s. Each after a warm-up of the same loop, not measured
 * ({@code --p1-warm-up-seconds} 3, {@code --sat-warm-up-seconds} 2): the bar is the steady state, and the first reads
 * after the seed ran cold code (JIT) and opened connections (the first idle run's p99 was its first second: 1,299 ms,
 * then 14-102 ms). Before the first service, this JVM's own client is warmed at saturation
 * ({@code --client-warm-up-seconds} 10): it compiled its 8-thread path for ~20 s, all of it in the first service's
 * windows (0.4-0.85 s of compiler threads' CPU per second of catalog's saturation, next to nothing in the next
 * services'), and on 2 cores that CPU was the catalog's: 1,800-1,950 req/s against 2,800-3,400 for the others.
 */
final class ReadBench {

  private final AllRun r;
  private boolean clientWarm;

  ReadBench(AllRun r) {
    this.r = r;
  }

  /** {@code paths}: the reads, taken in turn (e.g. one instance, then a page of its namespace). */
  void measure(String service, String what, List<String> paths) throws InterruptedException {
    Api api = r.api(service);
    int rate = r.opt("p1-rate", 200);
    long pid = r.pid(service);
    int threads = r.opt("sat-threads", 8);
    IntPredicate read = i -> api.get(paths.get(i % paths.size())).statusCode() == 200;
    if (!clientWarm) {
      OpenLoop.saturation("P1 client warm-up", threads, r.opt("client-warm-up-seconds", 10), read);
      clientWarm = true;
    }
    OpenLoop.atRate("P1 warm-up " + service, rate, r.opt("p1-warm-up-seconds", 3), read);
    long[] gcBefore = Proc.gcCounts(pid);
    OpenLoop.Result open = OpenLoop.atRate("P1 " + service, rate, r.opt("p1-seconds", 10), read);
    long[] gcAfter = Proc.gcCounts(pid);
    double p99 = open.stats().percentileMs(99);
    r.row("P1", service, Stats.f("%s, open loop %d req/s: p99 (p50; failed; collections young/full)", what, rate),
        "≤ 25 ms", Stats.f("%s ms (%s; %d of %d failed; GC %d/%d)", Stats.ms(p99),
            Stats.ms(open.stats().percentileMs(50)), open.failed(), open.sent(), gcAfter[0] - gcBefore[0],
            gcAfter[1] - gcBefore[1]), open.failed() == 0 && p99 <= 25, true);
    OpenLoop.saturation("P1 sat warm-up " + service, threads, r.opt("sat-warm-up-seconds", 2), read);
    long cpu = Proc.cpuTicks(pid);
    OpenLoop.Result sat = OpenLoop.saturation("P1 sat " + service, threads, r.opt("sat-seconds", 5), read);
    // The service's CPU per read does not depend on the machine's load as its rate does.
    double cpuMs = (Proc.cpuTicks(pid) - cpu) * 1000 / Proc.TICKS_PER_SECOND / Math.max(1, sat.stats().count());
    r.row("P1", service, Stats.f("%s, saturation (%d threads)", what, threads), "≥ 2,000 req/s",
        Stats.f("%.0f req/s (p99 %s ms; %d failed; service CPU %.2f ms per read)", sat.perSecond(),
            Stats.ms(sat.stats().percentileMs(99)), sat.failed(), cpuMs), sat.failed() == 0 && sat.perSecond() >= 2000,
        true);
  }
}
