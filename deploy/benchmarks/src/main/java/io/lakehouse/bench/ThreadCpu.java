package io.lakehouse.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CPU time per thread of another JVM, from the {@code cpu=…ms} that jstack prints for every thread, grouped (JIT
 * compiler, GC, event loops, reconcile workers, …). Two snapshots around a phase say where its CPU went.
 */
final class ThreadCpu {

  private static final Pattern LINE = Pattern.compile("^\"([^\"]*)\".*? cpu=([0-9.]+)ms", Pattern.MULTILINE);
  private static final List<String[]> GROUPS = List.of(
      new String[] {"JIT compiler", "C[12] CompilerThread.*|Sweeper thread"},
      new String[] {"garbage collector", "GC Thread.*|G1 .*|VM Thread"},
      new String[] {"Vert.x event loops (HTTP server, PostgreSQL client, mock server)", "vert\\.x-eventloop.*"},
      new String[] {"reconcile workers and their side-by-side applies", "reconcile-(apply-)?\\d+"},
      new String[] {"blocking worker pool (Kubernetes calls of the API)", "executor-thread-.*|vert\\.x-worker.*"},
      new String[] {"Kafka clients", "(smallrye-)?kafka.*"},
      new String[] {"outbox relay and LISTEN threads", "listen-.*|leader-.*"},
      new String[] {"cluster simulator", "cluster-simulator"});

  private ThreadCpu() {
  }

  static Map<String, Double> snapshot(long pid) {
    Map<String, Double> cpu = new LinkedHashMap<>();
    Matcher m = LINE.matcher(Proc.run(List.of("jstack", Long.toString(pid))));
    while (m.find()) {
      cpu.merge(group(m.group(1)), Double.parseDouble(m.group(2)), Double::sum);
    }
    return cpu;
  }

  private static String group(String thread) {
    for (String[] g : GROUPS) {
      if (thread.matches(g[1])) {
        return g[0];
      }
    }
    return "other threads";
  }

  /** A markdown table of {@code after - before}, per {@code unit} (e.g. per catalog), largest first. */
  static String table(String process, Map<String, Double> before, Map<String, Double> after, double per,
      String unit) {
    Map<String, Double> diff = new LinkedHashMap<>();
    after.forEach((k, v) -> diff.put(k, v - before.getOrDefault(k, 0.0)));
    double total = diff.values().stream().mapToDouble(Double::doubleValue).sum();
    StringBuilder s = new StringBuilder(Stats.f("| %s threads | CPU ms %s | share |%n|---|---:|---:|%n", process,
        unit));
    diff.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue(), a.getValue()))
        .filter(e -> e.getValue() / per >= 0.05)
        .forEach(e -> s.append(Stats.f("| %s | %.1f | %.0f %% |%n", e.getKey(), e.getValue() / per,
            100 * e.getValue() / Math.max(1e-9, total))));
    s.append(Stats.f("| **total** | **%.1f** | |%n", total / per));
    return s.toString();
  }
}
