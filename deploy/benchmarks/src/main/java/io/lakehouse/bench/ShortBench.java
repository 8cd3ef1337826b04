package io.lakehouse.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The short benchmark {@code lakehouse test} runs (≤ 2 min): {@code --n} catalogs (20) created until Ready on a warm
 * catalog-service, and what each costs that does not depend on the machine ({@link Costs}: API calls by verb, events,
 * SQL work, heap bytes), checked against the limits of {@code --thresholds} (deploy/benchmarks/thresholds.properties:
 * {@code catalog.<figure>.max}, with the value measured when it was set next to it). A change that multiplies a cost
 * per instance by ten exceeds its limit: exit status 1. Run by {@code deploy/benchmarks/run --short}.
 */
public final class ShortBench {

  private static final String NAMESPACE = "bench-short";
  private static final String SERVICE = "catalog";
  /** PostgreSQL backends publish their table statistics when idle, within PGSTAT_IDLE_INTERVAL (10 s). */
  private static final long STATS_SETTLE_MS = 11_000;

  private final Map<String, String> opts;
  private final KubernetesClient kube;
  private final Api api;
  private final Costs costs;
  private final String run = BenchCli.runId();

  private ShortBench(Map<String, String> opts) {
    this.opts = opts;
    Path home = Path.of(opts.getOrDefault("home", ".local")).toAbsolutePath();
    this.kube = BenchCli.kube(opts);
    this.api = new Api(opts.getOrDefault("api", "http://127.0.0.1:8081"), BenchCli.token(opts, home));
    long pid = Proc.pidFromFile(home.resolve("run/" + SERVICE + ".pid"))
        .orElseThrow(() -> new IllegalStateException("no running catalog-service (run/catalog.pid)"));
    this.costs = new Costs(opts.getOrDefault("kube", "http://127.0.0.1:56443"),
        opts.getOrDefault("kafka", "127.0.0.1:59092"), BenchCli.intOption(opts, "pg-port", 55432), SERVICE, pid);
  }

  public static void main(String[] argv) throws Exception {
    ShortBench bench = new ShortBench(BenchCli.options(argv));
    int rc;
    try {
      rc = bench.run();
    } finally {
      bench.kube.close();
    }
    System.exit(rc);
  }

  private int run() throws Exception {
    int n = BenchCli.intOption(opts, "n", 20);
    Buckets.namespace(kube, NAMESPACE);
    log("warm-up: 5 catalogs through their whole life (not measured)");
    lifeCycle(names("w", 5));
    Thread.sleep(STATS_SETTLE_MS);
    Costs.Snapshot before = costs.snapshot();
    log("measured: %d catalogs created until Ready", n);
    List<String> measured = names("m", n);
    createUntilReady(measured);
    Thread.sleep(STATS_SETTLE_MS);
    Costs.Snapshot after = costs.snapshot();
    delete(measured);
    Map<String, Double> perInstance = after.perInstance(before, n);
    return report(perInstance, n);
  }

  private List<String> names(String prefix, int n) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      names.add(String.format(Locale.ROOT, "s%s-%s-%03d", prefix, run, i));
    }
    return names;
  }

  private void lifeCycle(List<String> names) throws Exception {
    createUntilReady(names);
    delete(names);
  }

  private void createUntilReady(List<String> names) throws Exception {
    Loops.parallel(names.size(), 4, i -> {
      var r = api.createCatalog(NAMESPACE, names.get(i), Buckets.secret(NAMESPACE));
      if (r.statusCode() != 201) {
        throw new IllegalStateException("POST " + names.get(i) + ": " + r.statusCode() + " " + r.body());
      }
    });
    waitUntil(() -> {
      long ready = 0;
      for (JsonNode item : api.list(NAMESPACE)) {
        ready += names.contains(item.path("name").asText())
            && "Ready".equals(item.path("status").path("phase").asText()) ? 1 : 0;
      }
      return ready == names.size();
    }, "catalogs Ready");
  }

  private void delete(List<String> names) throws Exception {
    names.forEach(name -> api.delete(api.instances(NAMESPACE) + "/" + name));
    waitUntil(() -> api.list(NAMESPACE).size() == 0, "catalogs deleted");
  }

  private static void waitUntil(java.util.function.BooleanSupplier done, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(what + ": not within 90 s");
      }
      Thread.sleep(250);
    }
  }

  /** Writes the table of figures against their limits to {@code --out}; 1 when one exceeds its limit. */
  private int report(Map<String, Double> perInstance, int n) throws IOException {
    Properties limits = new Properties();
    Path file = Path.of(opts.getOrDefault("thresholds", "deploy/benchmarks/thresholds.properties"));
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      limits.load(in);
    }
    StringBuilder md = new StringBuilder(String.format(Locale.ROOT,
        "## Short benchmark: cost per catalog (%d catalogs until Ready, load average %s)%n%n"
            + "| figure | per catalog | limit | recorded |%n|---|---:|---:|---:|%n", n, Proc.loadAverage()));
    int over = 0;
    for (Map.Entry<String, Double> figure : perInstance.entrySet()) {
      String key = SERVICE + "." + figure.getKey();
      String max = limits.getProperty(key + ".max");
      boolean exceeded = max != null && figure.getValue() > Double.parseDouble(max);
      over += exceeded ? 1 : 0;
      md.append(String.format(Locale.ROOT, "| %s | %.1f%s | %s | %s |%n", key, figure.getValue(),
          exceeded ? " **over**" : "", max == null ? "none" : max, limits.getProperty(key + ".measured", "–")));
    }
    md.append(String.format(Locale.ROOT, "%nAs recorded values (thresholds.properties):%n%n```%n"));
    perInstance.forEach((figure, value) ->
        md.append(String.format(Locale.ROOT, "%s.%s.measured = %.1f%n", SERVICE, figure, value)));
    md.append("```\n");
    Files.writeString(Path.of(opts.getOrDefault("out", "deploy/benchmarks/target/short.md")), md);
    log("%s", md);
    return over == 0 ? 0 : 1;
  }

  private static void log(String format, Object... args) {
    BenchCli.log("short", format, args);
  }
}
