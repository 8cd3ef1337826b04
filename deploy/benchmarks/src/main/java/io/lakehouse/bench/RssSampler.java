package io.lakehouse.bench;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** P11 under load: the highest RSS of each service (/proc VmRSS, sampled every second) while it runs. */
final class RssSampler implements AutoCloseable {

  private final AllRun r;
  private final Map<String, Long> maxKb = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
    Thread t = new Thread(task, "rss-sampler");
    t.setDaemon(true);
    return t;
  });

  RssSampler(AllRun r) {
    this.r = r;
    timer.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
  }

  private void sample() {
    for (String service : r.apis.keySet()) {
      long pid = r.pid(service);
      if (pid > 0) {
        maxKb.merge(service, Proc.rssKb(pid), Math::max);
      }
    }
  }

  /** Stops sampling and adds one P11 row per service. */
  @Override
  public void close() {
    timer.shutdownNow();
    maxKb.forEach((service, kb) -> r.row("P11", service, "RSS under load (highest, P1, P2, P4 and P6)", "≤ 250 MB",
        Stats.f("%.0f MB", kb / 1024.0), kb > 0 && kb * 1024L <= 250_000_000L, false));
  }

  /** One P11 row per service: its RSS now, the system idle. */
  static void idle(AllRun r, String when) {
    for (String service : r.apis.keySet()) {
      long pid = r.pid(service);
      long kb = pid > 0 ? Proc.rssKb(pid) : -1;
      r.row("P11", service, "RSS idle, " + when, "≤ 150 MB", Stats.f("%.0f MB", kb / 1024.0),
          kb > 0 && kb * 1024L <= 150_000_000L, false);
    }
  }
}
