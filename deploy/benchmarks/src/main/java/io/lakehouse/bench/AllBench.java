package io.lakehouse.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Every figure of the quality bar that the per-service benchmarks do not measure (P1, P2, P4, P6-P11), for every service
 * where it applies, on the whole local stack the run script started fresh ({@code deploy/benchmarks/run --all}): one
 * table figure × service with target, value, verdict and load average, and the costs per instance that do not depend
 * on the machine. Each figure is its own class; this one orders them:
 * P1 reads → P2 creates → P4 sustained creation → P6 growth → P11 under load → P7 idle → P11 idle → P9 → P8 restarts → P10 Kafka outage.
 *
 * <pre>
 * java -cp … io.lakehouse.bench.AllBench --home .local --repo . --services 'catalog:8081 engines:8082 …'
 *   --kube URL --kafka HOST:PORT --pg-port N --out results.md [--namespaces 20] [--seed 20]
 *   [--p1-rate 200 --p1-seconds 10 --p1-warm-up-seconds 3] [--write-warm-up 400] [--p2-rate 100 --p2-seconds 3] [--sat-threads 8 --sat-seconds 5 --sat-warm-up-seconds 2 --client-warm-up-seconds 10]
 *   [--p6-burst 100 --p6-fill 1200] [--p7-seconds 60] [--p8-settle-seconds 10] [--p8-timeout-seconds 90]
 *   [--p9-changes 40 --p9-gap-ms 250] [--p10-changes 300]
 *   [--p10-outage-seconds 0] [--ready-timeout-seconds 600]
 * </pre>
 */
public final class AllBench {

  private static final String MLFLOW = "mlflow";

  private final AllRun r;
  private final LocalStack stack;
  private final String loadAtStart = Proc.loadAverage();
  private final long startMs = System.currentTimeMillis();
  /** Costs per instance: per catalog of P6's fill, per mlflow instance of P2 (empty until measured). */
  private final Map<String, Double> catalogCosts = new TreeMap<>();
  private final Map<String, Double> mlflowCosts = new TreeMap<>();

  private AllBench(Map<String, String> opts) {
    this.r = new AllRun(opts);
    this.stack = new LocalStack(Path.of(opts.getOrDefault("repo", ".")).toAbsolutePath());
  }

  public static void main(String[] argv) throws Exception {
    AllBench bench = new AllBench(BenchCli.options(argv));
    int rc;
    try {
      rc = bench.runAll();
    } finally {
      bench.r.kube.close();
    }
    System.exit(rc);
  }

  private static void log(String format, Object... args) {
    BenchCli.log("all", format, args);
  }

  /** The phases; whatever happens, the page with the rows measured so far (and why it stopped, if it did). */
  private int runAll() throws Exception {
    Files.createDirectories(r.work);
    int rc = 1;
    try {
      rc = phases();
    } catch (Exception | Error e) {
      log("stopped early: %s", e);
      r.notes.add(0, "**The run stopped early** (the rows above are what it measured until then): " + e);
    } finally {
      Path out = Path.of(r.opts.getOrDefault("out", r.work.resolve("results.md").toString()));
      Files.writeString(out, markdown(), StandardCharsets.UTF_8);
    }
    return rc;
  }

  private int phases() throws Exception {
    for (String service : r.apis.keySet()) {
      if (!r.api(service).healthy()) {
        log("%s-service is not ready on its /q/health/ready: start the stack first (deploy/benchmarks/run --all does)",
            service);
        return 1;
      }
    }
    int timeout = r.opt("ready-timeout-seconds", 600);
    log("run id %s; load average at start %s; namespaces all-%s-00…%02d", r.run, loadAtStart, r.run,
        r.namespaces.size() - 1);
    r.namespaces.forEach(ns -> Buckets.namespace(r.kube, ns));
    String ns0 = r.namespaces.get(0);

    // seed: the instances P1 reads (not measured)
    Loops.parallel(r.opt("seed", 20), 4, i -> r.createCatalog());
    AtomicInteger mlflows = new AtomicInteger();
    boolean engines = r.apis.containsKey("engines");
    boolean notebooks = r.apis.containsKey("notebooks");
    if (engines) {
      for (int i = 0; i < 5; i++) {
        createMlflow(mlflows.getAndIncrement());
      }
    }
    if (notebooks) {
      ObjectNode hub = r.api("notebooks").json().createObjectNode().put("name", NotebooksBench.HUB);
      hub.putObject("spec");
      r.api("notebooks").create(ns0, NotebooksBench.KIND, hub);
    }
    r.awaitCatalogsReady(timeout);

    RssSampler load = new RssSampler(r);
    if (phase("p1")) {
      measureReads(ns0, engines, notebooks);
    }
    if (phase("p2") || phase("p4")) {
      warmUpWrites(mlflows, engines, timeout);
    }
    if (phase("p2")) {
      measureCreates(mlflows, engines, timeout);
    }
    int sustained = phase("p4") ? new SustainedBench(r).measure() : 0;
    if (phase("p6")) {
      catalogCosts.putAll(new GrowthBench(r).measure(timeout));
    }
    load.close();

    r.awaitCatalogsReady(timeout);
    String instances = Stats.f("%d catalogs, %d mlflow, %d hub", r.catalogCount() + sustained, mlflows.get(),
        notebooks ? 1 : 0);
    if (phase("p7")) {
      new IdleBench(r).measure(instances);
      RssSampler.idle(r, "after P7's window (" + instances + ")");
    }
    if (phase("p9")) {
      EventLatency p9 = new EventLatency(r);
      p9.measureBurst(startMs, System.currentTimeMillis());
      p9.measureIdle();
    }
    if (phase("p8")) {
      RestartBench p8 = new RestartBench(r, stack);
      for (String service : r.apis.keySet()) {
        p8.measure(service, instances);
      }
    }
    if (phase("p10")) {
      new OutboxDrain(r, stack).measure(timeout);
    }
    return 0;
  }

  /** Whether this figure is measured: all of them unless {@code --phases p1,p8,…} names a few (while working on one). */
  private boolean phase(String id) {
    String only = r.opts.get("phases");
    return only == null || List.of(only.split(",")).contains(id);
  }

  private void measureReads(String ns0, boolean engines, boolean notebooks) throws Exception {
    ReadBench p1 = new ReadBench(r);
    p1.measure("catalog", "GET one catalog + a page of 1 namespace's", List.of(
        r.api("catalog").instances(ns0) + "/c00000", r.api("catalog").instances(ns0) + "?limit=50"));
    if (engines) {
      p1.measure("engines", "GET one mlflow + a page", List.of(
          r.api("engines").instances(ns0, MLFLOW) + "/m00000", r.api("engines").instances(ns0, MLFLOW) + "?limit=50"));
    }
    if (notebooks) {
      p1.measure("notebooks", "GET the hub + a page", List.of(
          r.api("notebooks").instances(ns0, NotebooksBench.KIND) + "/" + NotebooksBench.HUB,
          r.api("notebooks").instances(ns0, NotebooksBench.KIND) + "?limit=50"));
    }
    if (r.apis.containsKey("sparkjobs")) {
      p1.measure("sparkjobs", "GET a page of spark-jobs (empty)",
          List.of("/api/v1/namespaces/" + ns0 + "/spark-jobs?limit=50"));
    }
  }

  /**
   * Creates {@code --write-warm-up} catalogs (and a quarter as many mlflow instances) until Ready, unmeasured, before
   * P2 and P4. P4 stands for 5 minutes of creation, of which a JVM's first seconds are a small part; the run's short
   * windows were measured while the local API and the services still compiled their write paths (the local API's C2
   * compiler took 12 of its 33 s of CPU over a P4 window on a cold stack).
   */
  private void warmUpWrites(AtomicInteger mlflows, boolean engines, int timeout) throws Exception {
    int catalogs = r.opt("write-warm-up", 400);
    int mlflowCount = engines ? catalogs / 4 : 0;
    if (catalogs == 0) {
      return;
    }
    log("write warm-up: %d catalogs and %d mlflow instances until Ready (not measured)", catalogs, mlflowCount);
    Loops.parallel(catalogs, 8, i -> r.createCatalog());
    Loops.parallel(mlflowCount, 8, i -> createMlflow(mlflows.getAndIncrement()));
    r.awaitCatalogsReady(timeout);
    if (engines) {
      awaitMlflowsReady(timeout);
    }
  }

  private void measureCreates(AtomicInteger mlflows, boolean engines, int timeout) throws Exception {
    CreateBench p2 = new CreateBench(r);
    p2.measure("catalog", "iceberg-catalog", i -> r.createCatalog());
    if (engines) {
      // catalog-service converges P2's ≈ 1,000 catalogs for 30-40 s after its window: measured in that backlog, the
      // mlflow creates were catalog-service's figure on the shared 2 cores, not engines-service's.
      log("P2: waiting for the catalogs to be Ready before the mlflow creates");
      r.awaitCatalogsReady(timeout);
      Costs costs = new Costs(r.kubeUrl, r.pgPort, "engines", r.pid("engines"));
      Costs.Snapshot before = costs.snapshot();
      long cpu = Proc.cpuTicks(r.pid("engines"));
      int from = mlflows.get();
      p2.measure("engines", MLFLOW, i -> createMlflow(mlflows.getAndIncrement()));
      log("P2: waiting for the mlflow instances to be Ready");
      awaitMlflowsReady(timeout);
      Thread.sleep(11_000);
      int n = mlflows.get() - from;
      mlflowCosts.putAll(costs.snapshot().perInstance(before, n));
      mlflowCosts.put("cpu_ms", (Proc.cpuTicks(r.pid("engines")) - cpu) * 1000 / Proc.TICKS_PER_SECOND / n);
    }
  }

  private boolean createMlflow(int i) {
    String ns = r.namespaces.get(i % r.namespaces.size());
    ObjectNode body = r.api("engines").json().createObjectNode().put("name", Stats.f("m%05d", i));
    body.putObject("spec").putObject("storage").put("bucket", MLFLOW).put("endpoint", "http://minio." + ns
        + ".svc:9000").put("region", "us-east-1").put("credentialsSecret", Buckets.secret(ns));
    var response = r.api("engines").create(ns, MLFLOW, body);
    if (response.statusCode() != 201 && r.notes.size() < 50) {
      r.notes.add("POST mlflow " + i + ": " + response.statusCode() + " " + response.body());
    }
    return response.statusCode() == 201;
  }

  private void awaitMlflowsReady(int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      int all = 0;
      int ready = 0;
      for (String ns : r.namespaces) {
        for (var item : r.api("engines").list(ns, MLFLOW)) {
          all++;
          ready += "Ready".equals(item.path("status").path("phase").asText()) ? 1 : 0;
        }
      }
      if (ready == all) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(Stats.f("only %d of %d mlflow instances Ready after %d s", ready, all,
            seconds));
      }
      Thread.sleep(1000);
    }
  }

  private String markdown() {
    double cores = Runtime.getRuntime().availableProcessors();
    StringBuilder md = new StringBuilder();
    String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
    md.append("## Latest `--all` run: ").append(date).append("\n\n| | |\n|---|---|\n")
        .append("| machine | ").append((int) cores).append(" cores (nproc), ").append(Proc.memTotal()).append(", ")
        .append(Proc.cpuModel()).append(" |\n")
        .append("| load average | ").append(r.loadBeforeStack >= 0 ? Stats.f("%.2f before the stack started, ",
            r.loadBeforeStack) : "").append(loadAtStart).append(" at start, ").append(Proc.loadAverage())
        .append(" at the end (1, 5, 15 min) |\n")
        .append("| duration | ").append(Stats.f("%.1f min", (System.currentTimeMillis() - startMs) / 60000.0))
        .append(" |\n")
        .append("| code | ").append(r.opts.getOrDefault("commit", "?")).append(" |\n")
        .append("| run id | `").append(r.run).append("` (namespaces `all-").append(r.run).append("-NN`) |\n")
        .append("| sizes | ").append(sizes()).append(" |\n\n");
    md.append("Verdicts of wall-clock figures are marked *under load: not a verdict* when other work loaded the machine"
        + " (load average above the cores before the stack started; the stack's own load is part of the measure); the"
        + " counts (API calls, events, SQL, heap, CPU ms) do not depend on the load.\n\n");
    md.append(BarRow.header()).append('\n');
    List<BarRow> rows = new ArrayList<>(r.rows);
    rows.sort(Comparator.comparingInt((BarRow row) -> Integer.parseInt(row.figure().substring(1)))
        .thenComparingInt(row -> AllRun.SERVICES.indexOf(row.service())));
    rows.forEach(row -> md.append(row.markdown(cores, r.loadBeforeStack)).append('\n'));
    md.append("\n### Costs per instance (machine-independent)\n\n")
        .append("| figure | catalog (per catalog of P6's fill) | engines (per mlflow of P2, until Ready) |\n")
        .append("|---|---:|---:|\n");
    TreeMap<String, Double> keys = new TreeMap<>(catalogCosts);
    mlflowCosts.forEach(keys::putIfAbsent);
    keys.keySet().forEach(key -> md.append("| ").append(key).append(" | ").append(cost(catalogCosts, key))
        .append(" | ").append(cost(mlflowCosts, key)).append(" |\n"));
    if (!r.notes.isEmpty()) {
      md.append("\n### Notes of this run\n\n");
      r.notes.forEach(n -> md.append("- ").append(n.replace('\n', ' ')).append('\n'));
    }
    return md.toString();
  }

  private static String cost(Map<String, Double> costs, String key) {
    Double v = costs.get(key);
    return v == null ? "–" : Stats.f("%.1f", v);
  }

  private String sizes() {
    return Stats.f("P1 %d req/s × %d s; before P2 and P4 %d catalogs and a quarter as many mlflows created unmeasured; P2 %d creates/s × %d s; saturation %d threads × %d s (P1: after %d s unmeasured, the client warmed %d s); P6 burst %d, fill %d;"
            + " P7 %d s; P10 %d catalogs; %d namespaces (the bar's sizes: --p6-burst 1000 --p6-fill 9000"
            + " --p7-seconds 600 --p10-outage-seconds 300 --namespaces 100)", r.opt("p1-rate", 200), r.opt("p1-seconds", 10), r.opt("write-warm-up", 400), r.opt("p2-rate", 100),
        r.opt("p2-seconds", 3), r.opt("sat-threads", 8), r.opt("sat-seconds", 5), r.opt("sat-warm-up-seconds", 2), r.opt("client-warm-up-seconds", 10),
        r.opt("p6-burst", 100),
        r.opt("p6-fill", 1200), r.opt("p7-seconds", 60), r.opt("p10-changes", 300), r.namespaces.size());
  }
}
