package io.lakehouse.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.Reader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The short benchmark {@code lakehouse test} runs (≤ 2 min): {@code --n} instances ({@value #DEFAULT_N}) created until
 * Ready on a warm service, catalogs on catalog-service and, when {@code --services} names engines-service and it runs,
 * mlflow instances on engines-service; and what each costs that does not depend on the machine ({@link Costs}: API
 * calls by verb, events, SQL work, heap bytes; plus the reconcile passes, and the CPU ms, reported without a limit),
 * checked against the limits of {@code --thresholds} (deploy/benchmarks/thresholds.properties:
 * {@code <service>.<figure>.max}, with the value measured when it was set next to it). A change that multiplies a cost
 * per instance by ten exceeds its limit: exit status 1. Run by {@code deploy/benchmarks/run --short}.
 */
public final class ShortBench {

  private static final String NAMESPACE = "bench-short";
  /**
   * Instances measured per service. What grows on first use (a jar the class loader opens again, buffers of the
   * relay's Kafka producer) is spread over them: at 20 the heap per instance moved by ±50 KB, the size of a tenfold
   * regression of a catalog's 12 KB; at 100 five runs read 14.6-16.8 KB per catalog and 11.0-15.7 KB per mlflow.
   */
  private static final int DEFAULT_N = 100;
  /** PostgreSQL backends publish their table statistics when idle, within PGSTAT_IDLE_INTERVAL (10 s). */
  private static final long STATS_SETTLE_MS = 11_000;
  /** How long a service may take to commit its consumers' offsets (once 41 s after its start, see ConsumerLag). */
  private static final long CONSUMED_SECONDS = 90;
  /** How long a service may take to converge what its database already held before the benchmark starts. */
  private static final long QUIET_MINUTES = 10;

  /** A service's instances as the short benchmark makes them: its kind and a create request. */
  private record Subject(String service, String kind, String what) {
  }

  private final Map<String, String> opts;
  private final Path home;
  /** The run's raw data: each service's heap per instance by class ({@link ClassHistogram}). */
  private final Path work;
  private final KubernetesClient kube;
  private final String token;
  private final String run = BenchCli.runId();

  private ShortBench(Map<String, String> opts) {
    this.opts = opts;
    this.home = Path.of(opts.getOrDefault("home", ".local")).toAbsolutePath();
    this.work = Path.of(opts.getOrDefault("work", "deploy/benchmarks/target/short")).toAbsolutePath();
    this.kube = BenchCli.kube(opts);
    this.token = BenchCli.token(opts, home);
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
    int n = BenchCli.intOption(opts, "n", DEFAULT_N);
    Files.createDirectories(work);
    Buckets.namespace(kube, NAMESPACE);
    List<Subject> subjects = new ArrayList<>(List.of(new Subject("catalog", Api.KIND, "catalog")));
    if (BenchCli.hasService(opts, "engines") && pid("engines") > 0) {
      subjects.add(new Subject("engines", "mlflow", "mlflow instance"));
    }
    Map<String, Double> perInstance = new TreeMap<>();
    for (Subject subject : subjects) {
      measure(subject, n).forEach((figure, value) -> perInstance.put(subject.service() + "." + figure, value));
    }
    return report(perInstance, n, subjects);
  }

  private long pid(String service) {
    return Proc.pidFromFile(home.resolve("run/" + service + ".pid")).orElse(-1L);
  }

  /** Warm-up (5 through their whole life), then {@code n} created until Ready: the costs per instance. */
  private Map<String, Double> measure(Subject subject, int n) throws Exception {
    long pid = pid(subject.service());
    if (pid < 0) {
      throw new IllegalStateException("no running " + subject.service() + "-service (run/" + subject.service()
          + ".pid)");
    }
    Api api = new Api(subject.service().equals("catalog") ? BenchCli.api(opts, "catalog")
        : BenchCli.serviceUrl(opts, subject.service()), token);
    Costs costs = new Costs(opts.get("kube"), BenchCli.intOption(opts, "pg-port", 55432),
        subject.service(), pid);
    awaitQuiet(api, subject);
    log("%s: warm-up, 5 through their whole life (not measured)", subject.service());
    List<String> warmUp = names(subject, "w", 5);
    createUntilReady(api, subject, warmUp);
    delete(api, subject, warmUp);
    awaitConsumed(subject);
    Thread.sleep(STATS_SETTLE_MS);
    Costs.Snapshot before = costs.snapshot();
    String histogramBefore = ClassHistogram.take(pid); // after the snapshot's collections: the same live heap
    double passesBefore = api.reconcilePasses();
    long cpuBefore = Proc.cpuTicks(pid);
    log("%s: measured, %d created until Ready", subject.service(), n);
    List<String> measured = names(subject, "m", n);
    createUntilReady(api, subject, measured);
    awaitConsumed(subject);
    Thread.sleep(STATS_SETTLE_MS);
    Costs.Snapshot after = costs.snapshot();
    long cpuAfter = Proc.cpuTicks(pid);
    Files.writeString(work.resolve(subject.service() + "-heap-by-class.txt"),
        ClassHistogram.perInstance(histogramBefore, ClassHistogram.take(pid), n));
    Map<String, Double> perInstance = after.perInstance(before, n);
    perInstance.put("passes", (api.reconcilePasses() - passesBefore) / n);
    // The machine's load moves it (JIT, GC, contention): reported, not limited.
    perInstance.put("cpu_ms", (cpuAfter - cpuBefore) * 1000 / Proc.TICKS_PER_SECOND / n);
    delete(api, subject, measured);
    return perInstance;
  }

  /**
   * Waits until the service has nothing queued (twice in a row, 0.5 s apart). Why: instances an earlier run left in
   * the database, whose objects a restarted local API no longer holds (its store is in memory), are recreated when the
   * service starts; inside the measured window that read 396–622 ms of CPU and 84 passes per catalog.
   */
  private static void awaitQuiet(Api api, Subject subject) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(QUIET_MINUTES);
    boolean logged = false;
    int quiet = 0;
    while (true) {
      double depth = api.reconcileQueueDepth();
      quiet = depth == 0 ? quiet + 1 : 0;
      if (quiet == 2) {
        return;
      }
      if (depth > 0 && !logged) {
        log("%s: waiting for the %.0f instances it is reconciling (left by an earlier run?) before measuring",
            subject.service(), depth);
        logged = true;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(subject.service() + "-service still reconciles after " + QUIET_MINUTES
            + " min (" + depth + " instances queued): its database holds what an earlier run left;"
            + " 'deploy/local/lakehouse down --purge' starts from an empty one");
      }
      Thread.sleep(500);
    }
  }

  /** Waits until the service's consumers committed every event written so far: consumed inside the window. */
  private void awaitConsumed(Subject subject) throws Exception {
    String group = subject.service() + "-service";
    try (ConsumerLag lag = new ConsumerLag(opts.get("kafka"))) {
      if (!lag.awaitNone(group, CONSUMED_SECONDS)) {
        throw new IllegalStateException("consumer group " + group + " still has " + lag.of(group)
            + " records to commit after " + CONSUMED_SECONDS + " s");
      }
    }
  }

  private List<String> names(Subject subject, String prefix, int n) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      names.add(String.format(Locale.ROOT, "s%s%s-%s-%03d", subject.service().charAt(0), prefix, run, i));
    }
    return names;
  }

  private void createUntilReady(Api api, Subject subject, List<String> names) throws Exception {
    Loops.parallel(names.size(), 4, i -> {
      HttpResponse<String> r = subject.service().equals("catalog")
          ? api.createCatalog(NAMESPACE, names.get(i), Buckets.secret(NAMESPACE))
          : api.create(NAMESPACE, subject.kind(), mlflow(api, names.get(i)));
      if (r.statusCode() != 201) {
        throw new IllegalStateException("POST " + names.get(i) + ": " + r.statusCode() + " " + r.body());
      }
    });
    waitUntil(() -> {
      long ready = 0;
      for (JsonNode item : api.list(NAMESPACE, subject.kind())) {
        ready += names.contains(item.path("name").asText())
            && "Ready".equals(item.path("status").path("phase").asText()) ? 1 : 0;
      }
      return ready == names.size();
    }, subject.what() + "s Ready");
  }

  /** An mlflow instance on the namespace's bucket: no catalog and no OIDC client needed. */
  private static ObjectNode mlflow(Api api, String name) {
    ObjectNode body = api.json().createObjectNode().put("name", name);
    body.putObject("spec").putObject("storage").put("bucket", "mlflow").put("endpoint", "http://minio." + NAMESPACE
        + ".svc:9000").put("region", "us-east-1").put("credentialsSecret", Buckets.secret(NAMESPACE));
    return body;
  }

  private void delete(Api api, Subject subject, List<String> names) throws Exception {
    names.forEach(name -> api.delete(api.instances(NAMESPACE, subject.kind()) + "/" + name));
    waitUntil(() -> api.list(NAMESPACE, subject.kind()).size() == 0, subject.what() + "s deleted");
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
  private int report(Map<String, Double> perInstance, int n, List<Subject> subjects) throws IOException {
    Properties limits = new Properties();
    Path file = Path.of(opts.getOrDefault("thresholds", "deploy/benchmarks/thresholds.properties"));
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      limits.load(in);
    }
    StringBuilder md = new StringBuilder(String.format(Locale.ROOT,
        "## Short benchmark: cost per instance (%d of each until Ready: %s; load average %s)%n%n"
            + "| figure | per instance | limit | recorded |%n|---|---:|---:|---:|%n", n,
        String.join(", ", subjects.stream().map(s -> s.what() + "s").toList()), Proc.loadAverage()));
    int over = 0;
    for (Map.Entry<String, Double> figure : perInstance.entrySet()) {
      String key = figure.getKey();
      String max = limits.getProperty(key + ".max");
      boolean exceeded = max != null && figure.getValue() > Double.parseDouble(max);
      over += exceeded ? 1 : 0;
      md.append(String.format(Locale.ROOT, "| %s | %.1f%s | %s | %s |%n", key, figure.getValue(),
          exceeded ? " **over**" : "", max == null ? "none" : max, limits.getProperty(key + ".measured", "–")));
    }
    md.append(String.format(Locale.ROOT, "%nAs recorded values (thresholds.properties):%n%n```%n"));
    perInstance.forEach((figure, value) ->
        md.append(String.format(Locale.ROOT, "%s.measured = %.1f%n", figure, value)));
    md.append("```\n");
    Files.writeString(Path.of(opts.getOrDefault("out", "deploy/benchmarks/target/short.md")), md);
    log("%s", md);
    return over == 0 ? 0 : 1;
  }

  private static void log(String format, Object... args) {
    BenchCli.log("short", format, args);
  }
}
