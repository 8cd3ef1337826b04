package io.lakehouse.bench;

import java.util.function.IntPredicate;

/**
 * P2, the create API of one service (validate + one transaction: row + outbox; the creates do not wait for Ready): an
 * open loop at {@code --p2-rate} creates/s (100) for {@code --p2-seconds} (3): p99 ≤ 50 ms; then {@code --sat-threads}
 * (8) threads back to back for {@code --sat-seconds} (5): ≥ 500 creates/s. {@code create(i)} answers whether the API
 * said 201.
 */
final class CreateBench {

  private final AllRun r;

  CreateBench(AllRun r) {
    this.r = r;
  }

  void measure(String service, String what, IntPredicate create) throws InterruptedException {
    int rate = r.opt("p2-rate", 100);
    OpenLoop.Result open = OpenLoop.atRate("P2 " + service, rate, r.opt("p2-seconds", 3), create);
    double p99 = open.stats().percentileMs(99);
    r.row("P2", service, Stats.f("POST %s, open loop %d creates/s: p99 (p50; failed)", what, rate), "≤ 50 ms",
        Stats.f("%s ms (%s; %d of %d failed)", Stats.ms(p99), Stats.ms(open.stats().percentileMs(50)), open.failed(),
            open.sent()), open.failed() == 0 && p99 <= 50, true);
    int threads = r.opt("sat-threads", 8);
    OpenLoop.Result sat = OpenLoop.saturation("P2 sat " + service, threads, r.opt("sat-seconds", 5), create);
    r.row("P2", service, Stats.f("POST %s, saturation (%d threads)", what, threads), "≥ 500 creates/s",
        Stats.f("%.0f creates/s (p99 %s ms; %d failed)", sat.perSecond(), Stats.ms(sat.stats().percentileMs(99)),
            sat.failed()), sat.failed() == 0 && sat.perSecond() >= 500, true);
  }
}
