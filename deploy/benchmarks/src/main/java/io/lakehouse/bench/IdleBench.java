package io.lakehouse.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * P7, idle with the run's instances converged, for {@code --p7-seconds} (60; the bar's window is 600): the services'
 * Kubernetes API calls in the window (mutating ones must be 0; LISTs show a periodic resync) and each service's CPU
 * in % of one core (&lt; 2 %). The local API counts calls by client, and the services all call themselves fabric8:
 * the counts are the stack's, not one service's.
 */
final class IdleBench {

  static final List<String> MUTATING = List.of("create", "update", "patch", "delete", "deletecollection");

  private final AllRun r;

  IdleBench(AllRun r) {
    this.r = r;
  }

  void measure(String instances) throws InterruptedException {
    int seconds = r.opt("p7-seconds", 60);
    Thread.sleep(r.opt("p7-settle-seconds", 15) * 1000L);
    Map<String, Double> before = Costs.allServicesCalls(r.kubeUrl);
    Map<String, Long> ticks = new LinkedHashMap<>();
    r.apis.keySet().forEach(service -> ticks.put(service, Proc.cpuTicks(r.pid(service))));
    long t0 = System.nanoTime();
    BenchCli.log("all", "P7: %d s idle (%s)", seconds, instances);
    Thread.sleep(seconds * 1000L);
    double window = (System.nanoTime() - t0) / 1e9;
    Map<String, Double> after = Costs.allServicesCalls(r.kubeUrl);
    double mutating = MUTATING.stream().mapToDouble(v -> delta(after, before, v)).sum();
    double lists = delta(after, before, "list");
    r.row("P7", "all", Stats.f("mutating API calls in %.0f s idle (%s)", window, instances), "0",
        Stats.f("%.0f (%s)", mutating, verbs(after, before)), mutating == 0, false);
    r.row("P7", "all", Stats.f("LISTs in %.0f s idle", window), "no periodic LIST", Stats.f("%.0f", lists),
        lists == 0, false);
    ticks.forEach((service, t) -> {
      double percent = (Proc.cpuTicks(r.pid(service)) - t) / Proc.TICKS_PER_SECOND / window * 100;
      r.row("P7", service, Stats.f("CPU idle over %.0f s (%% of one core)", window), "< 2 %",
          Stats.f("%.2f %%", percent), percent < 2, false);
    });
  }

  static double delta(Map<String, Double> after, Map<String, Double> before, String verb) {
    return after.getOrDefault(verb, 0.0) - before.getOrDefault(verb, 0.0);
  }

  /** "verb n, …" for the verbs that moved. */
  static String verbs(Map<String, Double> after, Map<String, Double> before) {
    StringBuilder s = new StringBuilder();
    after.keySet().forEach(verb -> {
      double d = delta(after, before, verb);
      if (d != 0) {
        s.append(s.length() == 0 ? "" : ", ").append(verb).append(' ').append(Stats.f("%.0f", d));
      }
    });
    return s.length() == 0 ? "no call" : s.toString();
  }
}
