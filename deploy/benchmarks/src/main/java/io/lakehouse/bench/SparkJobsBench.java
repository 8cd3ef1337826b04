package io.lakehouse.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Quality bar P12 against a running sparkjobs-service: "launch → SparkApplication created" (the launch answers
 * 201 only once the SparkApplication exists, so its latency is the measure), one at a time on an idle system, then
 * the throughput of concurrent launches; then P1-style reads of the history those launches made (a page of 50,
 * newest first, and filtered by state). Every created application is counted on the API server at the end.
 * Then P12's second half: a history of {@code --history} jobs (10,000) written straight into the service's table
 * {@code sparkjobs.jobs} (launching that many would measure the mock API, not the history), read as a user does:
 * the first page, filtered pages, and every page one after the other, checked to hold each job exactly once.
 * At the end the run's SparkApplications, ConfigMaps and pods are removed from the mock and its rows from the table.
 *
 * <pre>
 * java -cp 'target/benchmarks-0.1.0-SNAPSHOT.jar:target/lib/*' io.lakehouse.bench.SparkJobsBench \
 *   --home .local --out results.md [--api http://127.0.0.1:8084] [--kube http://127.0.0.1:56443]
 *   [--pg-port 55432] [--latency 200] [--throughput 1000] [--threads 8] [--warm-up 50] [--reads 2000]
 *   [--history 10000] [--mock-creates 200]
 * </pre>
 */
public final class SparkJobsBench {

  private static final ResourceDefinitionContext APPS = new ResourceDefinitionContext.Builder()
      .withGroup("sparkoperator.k8s.io").withVersion("v1beta2").withKind("SparkApplication")
      .withPlural("sparkapplications").withNamespaced(true).build();
  private static final String FORM = "{\"name\":\"%s\",\"image\":\"apache/spark:3.5.3\","
      + "\"source\":{\"type\":\"script\",\"script\":\"print(1)\\n\"}}";

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String api;
  private final String token;

  private SparkJobsBench(String api, String token) {
    this.api = api;
    this.token = token;
  }

  public static void main(String[] argv) throws Exception {
    Map<String, String> opts = BenchCli.options(argv);
    Path home = Path.of(opts.getOrDefault("home", ".local"));
    String api = BenchCli.api(opts, "sparkjobs");
    if (!URI.create(api).getHost().equals("127.0.0.1")) {
      throw new IllegalArgumentException("benchmarks only talk to 127.0.0.1: " + api);
    }
    String loadAtStart = Proc.loadAverage();
    SparkJobsBench bench = new SparkJobsBench(api, BenchCli.token(opts, home));
    String run = BenchCli.runId();
    String ns = "bench-" + run;
    int warmUp = BenchCli.intOption(opts, "warm-up", 50);
    int latency = BenchCli.intOption(opts, "latency", 200);
    int throughput = BenchCli.intOption(opts, "throughput", 1000);
    int threads = BenchCli.intOption(opts, "threads", 8);
    int reads = BenchCli.intOption(opts, "reads", 2000);

    String pgPort = opts.getOrDefault("pg-port", "55432");
    Costs costs = new Costs(Proc.pidFromFile(home.resolve("run/sparkjobs.pid")).orElse(-1L),
        Proc.pidFromFile(home.resolve("run/kube.pid")).orElse(-1L), pgPort);
    int mockCreates = BenchCli.intOption(opts, "mock-creates", 200);
    Stats mockBefore = new Stats("test bed: one ConfigMap created on the local Kubernetes API, before the launches");
    Stats mockAfter = new Stats("test bed: one ConfigMap created on the local Kubernetes API, after the launches");
    for (int i = 0; i < warmUp; i++) {
      bench.launch(ns + "-w", "w" + i);
    }
    try (KubernetesClient kube = BenchCli.kube(opts)) {
      mockCreates(kube, ns + "-m", "b", mockCreates, mockBefore);
    }
    Stats single = new Stats("P12 launch → SparkApplication created, one at a time");
    long[] before = costs.snapshot();
    for (int i = 0; i < latency; i++) {
      single.add(bench.launch(ns, "l" + i));
    }
    String singleCosts = costs.perLaunch(before, latency);
    Stats concurrent = new Stats("P12 launches, " + threads + " threads");
    before = costs.snapshot();
    long t0 = System.nanoTime();
    bench.parallel(threads, throughput, i -> concurrent.add(bench.launch(ns, "t" + i)));
    double seconds = (System.nanoTime() - t0) / 1e9;
    String concurrentCosts = costs.perLaunch(before, throughput);
    Stats page = new Stats("history page of 50, newest first (" + (latency + throughput) + " jobs)");
    Stats filtered = new Stats("history filtered ?state=NEW, page of 50");
    for (int i = 0; i < reads; i++) {
      page.add(bench.get("/api/v1/namespaces/" + ns + "/spark-jobs?limit=50"));
      filtered.add(bench.get("/api/v1/namespaces/" + ns + "/spark-jobs?state=NEW&limit=50"));
    }
    int created;
    try (KubernetesClient kube = BenchCli.kube(opts)) {
      created = kube.genericKubernetesResources(APPS).inNamespace(ns).list().getItems().size();
      mockCreates(kube, ns + "-m", "a", mockCreates, mockAfter);
    }
    List<String> rows = new ArrayList<>(List.of(mockBefore.row("–"), single.row("–"),
        concurrent.row(Stats.rate(throughput, seconds, "launches")), mockAfter.row("–"), page.row("–"),
        filtered.row("–")));
    int history = BenchCli.intOption(opts, "history", 10_000);
    String historyNote = "";
    String historyNs = ns + "-h";
    if (history > 0) {
      historyNote = bench.history(historyNs, history, reads, pgPort, rows);
    }
    cleanup(opts, pgPort, List.of(ns, ns + "-w", ns + "-m", historyNs));
    String out = String.join("\n",
        Stats.f("## Latest sparkjobs run: %s UTC%n", java.time.LocalDateTime.now(java.time.ZoneOffset.UTC)
            .withNano(0).withSecond(0).toString().replace('T', ' ')),
        Stats.f("Load average at start %s (2 cores shared with other work); %s.%n", loadAtStart,
            opts.getOrDefault("commit", "?")),
        Stats.f("P12 (sparkjobs-service, run %s): %d warm-up launches, then %d one at a time, %d on %d threads;"
            + " %d SparkApplications in the namespace afterwards (expected %d).", run, warmUp, latency, throughput,
            threads, created, latency + throughput),
        Stats.f("Cost per launch, one at a time: %s. On %d threads: %s. (Service and local Kubernetes API CPU from"
            + " /proc; database transactions and sparkjobs rows written from pg_stat_database and"
            + " pg_stat_user_tables, whole database, so they include the tracking of each job to its end by"
            + " the simulator.)", singleCosts, threads, concurrentCosts),
        historyNote, "", Stats.header(), String.join("\n", rows), "");
    Files.writeString(Path.of(opts.getOrDefault("out", "results.md")), out);
    System.out.println(out);
    if (created != latency + throughput) {
      throw new IllegalStateException("expected " + (latency + throughput) + " SparkApplications, found " + created);
    }
  }

  /**
   * Writes {@code count} finished and running jobs of namespace {@code ns} into the history table (states mixed as
   * a busy namespace has them, one in ten a run of schedule {@code nightly}), then reads them through the API.
   */
  private String history(String ns, int count, int reads, String pgPort, List<String> rows) throws Exception {
    sql(pgPort, "INSERT INTO sparkjobs.jobs (namespace, name, state, source_type, created_by, created_at,"
        + " started_at, ended_at, schedule) SELECT '" + ns + "', 'h-' || lpad(i::text, 6, '0'),"
        + " (ARRAY['COMPLETED','COMPLETED','COMPLETED','COMPLETED','COMPLETED','COMPLETED','FAILED','CANCELLED',"
        + "'RUNNING','SUBMITTED'])[1 + i % 10], 'script', 'bench', now() - i * interval '1 minute',"
        + " now() - i * interval '1 minute', now() - i * interval '1 minute' + interval '30 seconds',"
        + " CASE WHEN i % 10 = 3 THEN 'nightly' END FROM generate_series(1, " + count + ") i");
    String base = "/api/v1/namespaces/" + ns + "/spark-jobs";
    Stats first = new Stats("history of " + count + " jobs: first page of 50");
    Stats failed = new Stats("history of " + count + " jobs: ?state=FAILED, page of 50");
    Stats scheduled = new Stats("history of " + count + " jobs: ?schedule=nightly, page of 50");
    for (int i = 0; i < reads; i++) {
      first.add(get(base + "?limit=50"));
      failed.add(get(base + "?state=FAILED&limit=50"));
      scheduled.add(get(base + "?schedule=nightly&limit=50"));
    }
    // Every page one after the other (the deepest pages too): each job exactly once.
    Stats walk = new Stats("history of " + count + " jobs: every page of 100 in turn (continue token)");
    java.util.Set<String> seen = new java.util.HashSet<>();
    String token = null;
    long t0 = System.nanoTime();
    do {
      String path = base + "?limit=100" + (token == null ? "" : "&continue="
          + java.net.URLEncoder.encode(token, java.nio.charset.StandardCharsets.UTF_8));
      long start = System.nanoTime();
      com.fasterxml.jackson.databind.JsonNode body = JSON.readTree(body(path));
      walk.add(System.nanoTime() - start);
      body.path("items").forEach(job -> seen.add(job.path("name").asText()));
      token = body.hasNonNull("continue") ? body.get("continue").asText() : null;
    } while (token != null && walk.count() <= count);
    double walkSeconds = (System.nanoTime() - t0) / 1e9;
    rows.add(first.row("–"));
    rows.add(failed.row("–"));
    rows.add(scheduled.row("–"));
    rows.add(walk.row(Stats.f("%.1f s for all %d jobs", walkSeconds, seen.size())));
    if (seen.size() != count) {
      throw new IllegalStateException("the pages held " + seen.size() + " distinct jobs, expected " + count);
    }
    return Stats.f("History: %d jobs written into sparkjobs.jobs of namespace %s (7 in 10 finished, 1 in 10 a run"
        + " of schedule nightly); %d reads of each page kind; walking all pages returned each job exactly once.",
        count, ns, reads);
  }

  /** Removes what the run made: its applications, ConfigMaps and pods on the mock, its history rows. */
  private static void cleanup(Map<String, String> opts, String pgPort, List<String> namespaces) {
    try (KubernetesClient kube = BenchCli.kube(opts)) {
      for (String ns : namespaces) {
        kube.genericKubernetesResources(APPS).inNamespace(ns).delete();
        kube.configMaps().inNamespace(ns).delete();
        kube.pods().inNamespace(ns).delete();
      }
    }
    String in = String.join(",", namespaces.stream().map(n -> "'" + n + "'").toList());
    sql(pgPort, "DELETE FROM sparkjobs.jobs WHERE namespace IN (" + in + ")");
  }

  /**
   * What a phase of launches cost: CPU of the service and of the local Kubernetes API (with its simulator), the
   * database's committed transactions and the rows written into schema sparkjobs. The transactions and rows depend
   * on the code only; the CPU also grows with the machine's load (compilation, GC and scheduling of a starved JVM).
   */
  private record Costs(long servicePid, long kubePid, String pgPort) {

    long[] snapshot() {
      String[] db = query(pgPort, "SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname"
          + " = 'lakehouse'), (SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables"
          + " WHERE schemaname = 'sparkjobs')").split("\\|");
      return new long[] {servicePid > 0 ? Proc.cpuTicks(servicePid) : 0, kubePid > 0 ? Proc.cpuTicks(kubePid) : 0,
          Long.parseLong(db[0].trim()), Long.parseLong(db[1].trim())};
    }

    String perLaunch(long[] before, int launches) {
      // PostgreSQL publishes a backend's counters when it goes idle, at most once a second: let them arrive.
      try {
        Thread.sleep(1500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      long[] after = snapshot();
      double tickMs = 1000.0 / Proc.TICKS_PER_SECOND;
      return Stats.f("service CPU %.1f ms, local Kubernetes API CPU %.1f ms, %.1f database transactions,"
          + " %.1f sparkjobs rows written", (after[0] - before[0]) * tickMs / launches,
          (after[1] - before[1]) * tickMs / launches, (after[2] - before[2]) / (double) launches,
          (after[3] - before[3]) / (double) launches);
    }
  }

  /** One query through the local cluster's psql, its unaligned output (columns separated by |). */
  private static String query(String pgPort, String statement) {
    String psql = AuthzBench.psql();
    if (psql == null) {
      throw new IllegalStateException("psql of the local PostgreSQL not found");
    }
    return Proc.run(List.of("env", "PGPASSWORD=postgres", psql, "-h", "127.0.0.1", "-p", pgPort, "-U",
        "postgres", "-d", "lakehouse", "-v", "ON_ERROR_STOP=1", "-Atc", statement)).trim();
  }

  /** One statement through the local cluster's psql, as the postgres superuser (127.0.0.1 only). */
  private static void sql(String pgPort, String statement) {
    String psql = AuthzBench.psql();
    if (psql == null) {
      throw new IllegalStateException("psql of the local PostgreSQL not found");
    }
    String out = Proc.run(List.of("env", "PGPASSWORD=postgres", psql, "-h", "127.0.0.1", "-p", pgPort, "-U",
        "postgres", "-d", "lakehouse", "-v", "ON_ERROR_STOP=1", "-Atc", statement));
    if (out.contains("ERROR") || out.equals("?")) {
      throw new IllegalStateException("psql failed: " + out);
    }
    BenchCli.log("sparkjobs", "psql: %s", out.trim());
  }

  /**
   * The test bed's own share: {@code count} ConfigMaps created one at a time straight on the local Kubernetes API (a
   * launch makes two objects there), so a slow API server, whose store scans grow with its size, is not taken for a
   * slow service.
   */
  private static void mockCreates(KubernetesClient kube, String ns, String prefix, int count, Stats stats) {
    for (int i = 0; i < count; i++) {
      io.fabric8.kubernetes.api.model.ConfigMap map = new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
          .withNewMetadata().withName(prefix + i).withNamespace(ns).endMetadata()
          .withData(Map.of("main.py", "print(1)\n")).build();
      long start = System.nanoTime();
      kube.configMaps().inNamespace(ns).resource(map).create();
      stats.add(System.nanoTime() - start);
    }
  }

  /** One launch; its latency in nanoseconds (201 only once the SparkApplication exists). */
  private long launch(String namespace, String name) {
    HttpRequest request = HttpRequest.newBuilder(URI.create(api + "/api/v1/namespaces/" + namespace + "/spark-jobs"))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.ofString(String.format(FORM, name))).build();
    return timed(request, 201);
  }

  private String body(String path) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(api + path)).header("Authorization", "Bearer " + token)
        .timeout(Duration.ofSeconds(30)).GET().build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(request.uri() + ": " + response.statusCode() + " " + response.body());
    }
    return response.body();
  }

  private long get(String path) {
    HttpRequest request = HttpRequest.newBuilder(URI.create(api + path)).header("Authorization", "Bearer " + token)
        .timeout(Duration.ofSeconds(30)).GET().build();
    return timed(request, 200);
  }

  private long timed(HttpRequest request, int expected) {
    long start = System.nanoTime();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      long took = System.nanoTime() - start;
      if (response.statusCode() != expected) {
        throw new IllegalStateException(request.uri() + ": " + response.statusCode() + " " + response.body());
      }
      return took;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private interface Task {
    void run(int index);
  }

  private void parallel(int threads, int count, Task task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicInteger next = new AtomicInteger();
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      done.add(pool.submit(() -> {
        for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
          task.run(i);
        }
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
  }
}
