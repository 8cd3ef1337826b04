package io.lakehouse.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The engines-service benchmarks (quality bar P3 and P5 for the engine kinds), against a running local stack with
 * engines-service: "P3-trino", request → all Kubernetes objects of one Trino instance, one fresh namespace per
 * request, idle system; "P5-mixed", a burst of trino, spark-connect, mlflow and nifi instances over several namespaces
 * until all are Ready; the heap growth per instance. Run by {@code deploy/benchmarks/run --engines}.
 *
 * <p>access-service and Keycloak are not involved: right after each Trino or NiFi POST the benchmark does what
 * access-service does once Keycloak has the OIDC client (the {@code <name>-oidc} Secret, then
 * {@code access.oidc-client-ready} on {@code lakehouse.access}). The catalog each namespace needs is announced by an
 * {@code instance.ready} event as catalog-service publishes it, with the bucket Secret it names.
 *
 * <pre>
 * java -cp 'target/benchmarks-0.1.0-SNAPSHOT.jar:target/lib/*' io.lakehouse.bench.EnginesBench \
 *   --home .local --out results.md [--work DIR] [--api http://127.0.0.1:8082] [--kube http://127.0.0.1:56443]
 *   [--kafka 127.0.0.1:59092] [--p3 50] [--p5 200] [--p5-namespaces 10] [--p5-threads 8] [--warm-up 40]
 * </pre>
 */
public final class EnginesBench {

  static final List<String> KINDS = List.of("trino", "spark-connect", "mlflow", "nifi");
  static final String CATALOG = "cat";
  static final String BUCKET_SECRET = "warehouse-bucket";
  static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  static final String INSTANCE = "app.kubernetes.io/instance";
  static final String TRINO = "sql";

  private final EnginesRun r;

  private EnginesBench(Map<String, String> opts) {
    this.r = new EnginesRun(opts);
  }

  public static void main(String[] argv) throws Exception {
    EnginesBench bench = new EnginesBench(BenchCli.options(argv));
    int rc;
    try {
      rc = bench.runAll();
    } finally {
      bench.r.events.close();
      bench.r.kube.close();
    }
    System.exit(rc);
  }

  private static void log(String format, Object... args) {
    BenchCli.log("bench", format, args);
  }

  private int runAll() throws Exception {
    Files.createDirectories(r.work);
    String loadAtStart = Proc.loadAverage();
    if (!r.api.healthy()) {
      log("engines-service is not ready on /q/health/ready: start it first (deploy/benchmarks/run --engines does)");
      return 1;
    }
    int auth = r.api.get(r.api.instances("default", "trino")).statusCode();
    if (auth != 200) {
      log("engines-service answers %d to the benchmark's token (Keycloak tokens? pass --token-command)", auth);
      return 1;
    }
    long pid = Proc.pidFromFile(r.home.resolve("run/engines.pid"))
        .orElseThrow(() -> new IllegalStateException("no running engines-service (run/engines.pid)"));
    long kubePid = Proc.pidFromFile(r.home.resolve("run/kube.pid"))
        .orElseThrow(() -> new IllegalStateException("no running local Kubernetes API (run/kube.pid)"));
    String header = new EnginesEnvironment(r).environment(loadAtStart, pid, kubePid);
    log("run id %s; load average at start %s", r.run, loadAtStart);
    EnginesLog engineLog = new EnginesLog(r);
    long logOffset = engineLog.logSize();
    int exit = 0;
    EnginesBurst bursts = new EnginesBurst(r);
    EnginesP3 p3 = new EnginesP3(r);
    EnginesCleanup cleanup = new EnginesCleanup(r);
    try {
      // Warm-up (not measured): every kind through its whole life once, in two namespaces of its own.
      List<String> warm = new EngineFixtures(r).prepareNamespaces("bew-" + r.run, 2);
      List<String> trinoKeys = null;
      int warmN = r.opt("warm-up", 40);
      if (warmN > 0) {
        log("warm-up: %d instances of the four kinds (not measured)", warmN);
        EnginesBurst.Burst w = bursts.burst(warm, warmN, 4, "w", 180);
        bursts.notReady(w, "warm-up");
        log("warm-up: %d/%d Ready after %.1f s", w.ready, w.acceptedCount, w.seconds);
        trinoKeys = p3.discoverTrinoObjects(w);
        cleanup.deleteInstances(new ArrayList<>(r.created), "warm-up");
        r.created.clear();
      }
      if (trinoKeys == null || trinoKeys.isEmpty()) {
        trinoKeys = List.of("ConfigMap/-instance", "ConfigMap/-config", "ConfigMap/-worker-config",
            "ConfigMap/-catalog", "Secret/-internal", "Secret/-tls", "Deployment/", "Deployment/-worker", "Service/",
            "Ingress/");
        r.notes.add("the Trino object list was not taken from the warm-up: the documented list was used");
      }
      if (r.opt("p3", 50) > 0) {
        p3.p3(r.opt("p3", 50), trinoKeys, pid, kubePid);
      }
      if (r.opt("p5", 200) > 0) {
        bursts.p5(r.opt("p5", 200), r.opt("p5-namespaces", 10), r.opt("p5-threads", 8), pid, kubePid);
      }
    } catch (RuntimeException e) {
      log("benchmark failed: %s", e);
      r.notes.add("the run stopped early: " + e);
      exit = 1;
    } finally {
      cleanup.cleanup();
    }
    r.detail.append(engineLog.logSummary(logOffset));

    StringBuilder md = new StringBuilder(header).append('\n');
    md.append("### Results\n\n").append(Stats.header()).append('\n');
    r.rows.forEach(row -> md.append(row).append('\n'));
    md.append('\n').append(r.detail);
    if (!r.notes.isEmpty()) {
      md.append("\n### Notes of this run\n\n");
      r.notes.forEach(n -> md.append("- ").append(n).append('\n'));
    }
    Path out = Path.of(r.opts.getOrDefault("out", r.work.resolve("results.md").toString()));
    Files.writeString(out, md.toString(), StandardCharsets.UTF_8);
    StringBuilder tsv = new StringBuilder();
    r.figures.forEach((k, v) -> tsv.append(k).append('\t').append(v).append('\n'));
    Files.writeString(r.work.resolve("figures.tsv"), tsv.toString());
    System.out.println(md);
    return exit;
  }
}
