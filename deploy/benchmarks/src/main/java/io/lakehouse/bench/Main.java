package io.lakehouse.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

/**
 * The control plane benchmarks (quality bar M, P3, P5), against a running local stack. Not a test: run by
 * {@code deploy/benchmarks/run}, which brings the stack up with the simulator delay at 0.
 *
 * <pre>
 * java -cp 'target/benchmarks-0.1.0-SNAPSHOT.jar:target/lib/*' io.lakehouse.bench.Main \
 *   --home .local --out results.md [--work DIR] [--kube http://127.0.0.1:56443] [--api http://127.0.0.1:8081]
 *   [--m 2000] [--m-threads 4] [--p3 100] [--p5 1000] [--p5-namespaces 10] [--p5-threads 8] [--thread-dumps 0]
 * </pre>
 */
public final class Main {

  static final String ISSUER = "https://lakehouse.local/issuer";
  static final String P3_NAMESPACE = "bench-p3";
  static final String M_NAMESPACE = "bench-m";
  static final String BENCH_LABEL = "lakehouse.io/bench";
  /** Objects the service creates per converged catalog (see docs/benchmarks.md, "counting"). */
  static final int SERVICE_CREATES_PER_CATALOG = 10;

  private final Map<String, String> opts;
  private final Path home;
  private final Path work;
  private final KubernetesClient kube;
  private final Api api;
  private final String run;
  private final StringBuilder md = new StringBuilder();
  private final List<String> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final Map<String, Double> figures = new LinkedHashMap<>();
  private final List<String[]> created = Collections.synchronizedList(new ArrayList<>());

  private Main(Map<String, String> opts) {
    this.opts = opts;
    this.home = Path.of(opts.getOrDefault("home", ".local")).toAbsolutePath();
    this.work = Path.of(opts.getOrDefault("work", "deploy/benchmarks/target/run")).toAbsolutePath();
    this.kube = BenchCli.kube(opts);
    String tokenCommand = opts.get("token-command");
    String token = BenchCli.token(opts, home);
    this.api = new Api(opts.getOrDefault("api", "http://127.0.0.1:8081"), token);
    if (tokenCommand != null) {
      // Keycloak's access tokens live 5 min: take a new one every 4.
      java.util.concurrent.ScheduledExecutorService refresh = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "token-refresh");
        t.setDaemon(true);
        return t;
      });
      refresh.scheduleAtFixedRate(() -> api.token(BenchCli.commandToken(tokenCommand)), 4, 4, TimeUnit.MINUTES);
    }
    this.run = BenchCli.runId();
  }


  public static void main(String[] argv) throws Exception {
    Map<String, String> opts = BenchCli.options(argv);
    Main main = new Main(opts);
    int rc;
    try {
      rc = main.runAll();
    } finally {
      main.kube.close();
    }
    System.exit(rc);
  }

  private int opt(String name, int fallback) {
    return BenchCli.intOption(opts, name, fallback);
  }

  private static void log(String format, Object... args) {
    BenchCli.log("bench", format, args);
  }

  private int runAll() throws Exception {
    Files.createDirectories(work);
    String loadAtStart = Proc.loadAverage();
    if (!api.healthy()) {
      log("catalog-service is not ready on /q/health/ready: start the stack first (deploy/benchmarks/run does)");
      return 1;
    }
    int auth = api.get("/api/v1/namespaces/" + P3_NAMESPACE + "/buckets").statusCode();
    if (auth != 200) {
      log("catalog-service answers %d to the benchmark's token: it may validate Keycloak tokens (pass"
          + " --token-command 'deploy/local/lakehouse token alice'; deploy/benchmarks/run does when it sees that)",
          auth);
      return 1;
    }
    long catalogPid = Proc.pidFromFile(home.resolve("run/catalog.pid"))
        .orElseThrow(() -> new IllegalStateException("no running catalog-service (run/catalog.pid)"));
    long kubePid = Proc.pidFromFile(home.resolve("run/kube.pid"))
        .orElseThrow(() -> new IllegalStateException("no running local Kubernetes API (run/kube.pid)"));
    String header = environment(loadAtStart, catalogPid, kubePid);
    log("run id %s; load average at start %s", run, loadAtStart);

    int p5Namespaces = opt("p5-namespaces", 10);
    List<String> p5ns = new ArrayList<>();
    for (int i = 0; i < p5Namespaces; i++) {
      p5ns.add("bench-p5-" + i);
    }
    List<String> benchNamespaces = new ArrayList<>(List.of(P3_NAMESPACE));
    benchNamespaces.addAll(p5ns);
    removeLeftovers(benchNamespaces);
    benchNamespaces.forEach(this::bucketNamespace);

    warmUp(opt("warm-up", 100));
    // M first, on an (almost) empty store: the yardstick every service figure is divided by.
    MockRate m = mockRate("M", opt("m", 2000), opt("m-threads", 4));
    MockRate m1 = mockRate("M1", Math.max(1, opt("m", 2000) / 4), 1);
    if (opt("p3", 100) > 0) {
      p3(opt("p3", 100), m1, catalogPid, kubePid);
    }
    if (opt("p5", 1000) > 0) {
      p5(p5ns, opt("p5", 1000), opt("p5-threads", 8), m, catalogPid, kubePid);
      MockRate loaded = mockRate("M (loaded)", Math.max(1, opt("m", 2000) / 2), opt("m-threads", 4));
      notes.add(Stats.f("M (loaded) repeats M right after P5, while the mock holds the objects of %d catalogs:"
          + " %.0f creates/s, vs %.0f on the almost empty store. The fabric8 mock finds objects by a linear scan"
          + " of its whole store on every request (see the reading below).", created.size(),
          loaded.createsPerSecond(), m.createsPerSecond()));
    }
    cleanup(benchNamespaces);
    if (opt("fill", 11 * opt("p5", 1000)) > 0) {
      fill(opt("fill", 11 * opt("p5", 1000)), opt("m-threads", 4));
    }

    md.append(header).append('\n');
    md.append("### Results\n\n").append(Stats.header()).append('\n');
    rows.forEach(r -> md.append(r).append('\n'));
    md.append('\n');
    md.append(detail);
    if (!notes.isEmpty()) {
      md.append("\n### Notes of this run\n\n");
      notes.forEach(n -> md.append("- ").append(n).append('\n'));
    }
    Path out = Path.of(opts.getOrDefault("out", work.resolve("results.md").toString()));
    Files.writeString(out, md.toString(), StandardCharsets.UTF_8);
    StringBuilder tsv = new StringBuilder();
    figures.forEach((k, v) -> tsv.append(k).append('\t').append(v).append('\n'));
    Files.writeString(work.resolve("figures.tsv"), tsv.toString());
    System.out.println(md);
    return 0;
  }

  private final StringBuilder detail = new StringBuilder();

  // ---------------------------------------------------------------- environment

  private String environment(String load, long catalogPid, long kubePid) {
    String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
    String catalogCmd = Proc.cmdline(catalogPid);
    String kubeCmd = Proc.cmdline(kubePid);
    String delay = kubeCmd.replaceAll(".*--delay-ms (\\d+).*", "$1");
    if (delay.equals(kubeCmd)) {
      delay = "1000 (default)";
    }
    String workers = "4 (default, lakehouse.reconcile.workers)";
    String logText = Proc.read(home.resolve("logs/catalog.log"));
    int at = logText.lastIndexOf("reconcile loop started with ");
    if (at >= 0) {
      workers = logText.substring(at + "reconcile loop started with ".length()).split(" ")[0]
          + " (lakehouse.reconcile.workers, from catalog.log)";
    }
    String heap = catalogCmd.replaceAll(".*(-Xmx\\S+).*", "$1");
    String quarkus = "3.33.2";
    String deps = Proc.read(Path.of(opts.getOrDefault("repo", "."), "catalog-service/target/quarkus-app/quarkus-app-dependencies.txt"));
    java.util.regex.Matcher qm = java.util.regex.Pattern.compile("io\\.quarkus:quarkus-core::jar:(\\S+)").matcher(deps);
    if (qm.find()) {
      quarkus = qm.group(1);
    }
    String fabric8 = KubernetesClient.class.getPackage().getImplementationVersion();
    if (fabric8 == null) {
      fabric8 = jarVersion(KubernetesClient.class, "kubernetes-client-api-");
    }
    String kafka = "4.1.2";
    try (var files = Files.list(home.resolve("kafka/lib"))) {
      kafka = files.map(p -> p.getFileName().toString()).filter(n -> n.matches("kafka_2\\.13-[0-9.]+\\.jar"))
          .map(n -> n.replaceAll("kafka_2\\.13-([0-9.]+)\\.jar", "$1")).findFirst().orElse(kafka);
    } catch (IOException e) {
      // keep the documented version
    }
    String pg = Proc.postgresVersion(Integer.parseInt(opts.getOrDefault("pg-port", "55432")));
    String commit = opts.getOrDefault("commit", "?");
    StringBuilder stack = new StringBuilder();
    try (var pids = Files.list(home.resolve("run"))) {
      pids.filter(p -> p.getFileName().toString().endsWith(".pid")).sorted().forEach(p -> Proc.pidFromFile(p)
          .ifPresent(pid -> stack.append(stack.length() == 0 ? "" : ", ")
              .append(p.getFileName().toString().replace(".pid", ""))
              .append(Stats.f(" (RSS %.0f MiB)", Proc.rssKb(pid) / 1024.0))));
    } catch (IOException e) {
      stack.append("?");
    }
    return "## Latest run: " + date + "\n\n"
        + "| | |\n|---|---|\n"
        + "| machine | " + Runtime.getRuntime().availableProcessors() + " cores (nproc), " + Proc.memTotal()
        + " memory, " + Proc.cpuModel() + " |\n"
        + "| load average at start | " + load + " (1, 5, 15 min; other builds share the machine) |\n"
        + "| Java | " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
        + " (same `java` for the services and the benchmark) |\n"
        + "| versions | Quarkus " + quarkus + ", fabric8 kubernetes-client " + fabric8 + ", PostgreSQL " + pg
        + ", Kafka " + kafka + " |\n"
        + "| settings | reconcile workers " + workers + "; simulator delay " + delay + " ms; catalog-service "
        + heap + "; PostgreSQL synchronous_commit=off |\n"
        + "| stack processes at start | " + stack + " |\n"
        + "| code | " + commit + " |\n"
        + "| run id | `" + run + "` (instance names `p3-" + run + "-NNN`, `p5-" + run + "-NNNN`) |\n";
  }

  private static String jarVersion(Class<?> type, String prefix) {
    String path = type.getProtectionDomain().getCodeSource().getLocation().getPath();
    String file = path.substring(path.lastIndexOf('/') + 1);
    return file.startsWith(prefix) ? file.substring(prefix.length()).replace(".jar", "") : "?";
  }

  // ---------------------------------------------------------------- set-up and leftovers

  private void bucketNamespace(String namespace) {
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
        .addToLabels(BENCH_LABEL, "true").endMetadata().build()).createOr(NonDeletingOperation::update);
    kube.secrets().inNamespace(namespace).resource(new SecretBuilder()
        .withNewMetadata()
        .withName(bucketSecret(namespace))
        .withNamespace(namespace)
        .addToLabels("lakehouse.io/bucket", "true")
        .addToLabels(BENCH_LABEL, "true")
        .addToAnnotations("lakehouse.io/bucket-name", "warehouse")
        .addToAnnotations("lakehouse.io/endpoint", "http://minio." + namespace + ".svc:9000")
        .addToAnnotations("lakehouse.io/region", "us-east-1")
        .addToAnnotations("lakehouse.io/path-style", "true")
        .endMetadata()
        .withType("Opaque")
        .addToData("AWS_ACCESS_KEY_ID", base64("bench-access-key"))
        .addToData("AWS_SECRET_ACCESS_KEY", base64("bench-secret-key"))
        .build()).createOr(NonDeletingOperation::update);
  }

  private static String bucketSecret(String namespace) {
    return namespace + "-warehouse";
  }

  private static String base64(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }

  /** Instances left by an interrupted run: deleted (bounded) so that every run starts from the same state. */
  private void removeLeftovers(List<String> namespaces) throws InterruptedException {
    List<String[]> left = new ArrayList<>();
    for (String ns : namespaces) {
      api.list(ns).forEach(item -> left.add(new String[] {ns, item.path("name").asText()}));
    }
    kube.configMaps().inNamespace(M_NAMESPACE).withLabel(BENCH_LABEL, "m").list().getItems()
        .forEach(cm -> kube.resource(cm).delete());
    if (left.isEmpty()) {
      return;
    }
    log("deleting %d instances left by an earlier run", left.size());
    left.forEach(k -> api.delete(api.instances(k[0]) + "/" + k[1]));
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (System.nanoTime() < deadline) {
      int n = 0;
      for (String ns : namespaces) {
        n += api.list(ns).size();
      }
      if (n == 0) {
        return;
      }
      Thread.sleep(500);
    }
    log("instances of an earlier run are still there after 5 min: going on");
    notes.add("instances of an earlier run were still listed after 5 min of waiting for their deletion;"
        + " this run went on (its own names differ)");
  }

  // ---------------------------------------------------------------- warm-up

  /**
   * Unmeasured: every JVM of the stack was just (re)started, and the first thousands of calls run interpreted code.
   * ConfigMaps on the mock, then {@code catalogs} catalogs through their whole life (create, Ready, delete).
   */
  private void warmUp(int catalogs) throws Exception {
    log("warm-up: 3000 ConfigMaps, then %d catalogs created, made Ready and deleted (not measured)", catalogs);
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(M_NAMESPACE)
        .addToLabels(BENCH_LABEL, "true").endMetadata().build()).createOr(NonDeletingOperation::update);
    String prefix = "w-" + run + "-";
    parallel(3000, 4, i -> kube.configMaps().inNamespace(M_NAMESPACE).resource(new ConfigMapBuilder()
        .withNewMetadata().withName(prefix + i).addToLabels(BENCH_LABEL, "m").endMetadata()
        .addToData("key", "value").build()).create());
    parallel(3000, 4, i -> kube.configMaps().inNamespace(M_NAMESPACE).withName(prefix + i).delete());
    List<String> names = new ArrayList<>();
    for (int i = 0; i < catalogs; i++) {
      names.add(Stats.f("w-%s-%03d", run, i));
    }
    parallel(catalogs, 4, i -> api.createCatalog(P3_NAMESPACE, names.get(i), bucketSecret(P3_NAMESPACE)));
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (System.nanoTime() < deadline) {
      long ready = 0;
      for (JsonNode item : api.list(P3_NAMESPACE)) {
        ready += "Ready".equals(item.path("status").path("phase").asText()) ? 1 : 0;
      }
      if (ready >= catalogs) {
        break;
      }
      Thread.sleep(500);
    }
    parallel(catalogs, 4, i -> api.delete(api.instances(P3_NAMESPACE) + "/" + names.get(i)));
    while (System.nanoTime() < deadline && api.list(P3_NAMESPACE).size() > 0) {
      Thread.sleep(500);
    }
    if (api.list(P3_NAMESPACE).size() > 0) {
      throw new IllegalStateException("warm-up catalogs did not converge and go within 3 min");
    }
    Thread.sleep(3000); // let the garbage collector and JIT compiler threads calm down
  }

  // ---------------------------------------------------------------- M

  record MockRate(Stats create, double createSeconds, Stats delete, double deleteSeconds, int errors) {
    double createsPerSecond() {
      return create.count() / createSeconds;
    }
  }

  private MockRate mockRate(String label, int n, int threads) throws Exception {
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(M_NAMESPACE)
        .addToLabels(BENCH_LABEL, "true").endMetadata().build()).createOr(NonDeletingOperation::update);
    String prefix = "m-" + run + "-" + label.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT) + "-";
    AtomicInteger errors = new AtomicInteger();
    Stats create = new Stats(Stats.f("%s: mock API create ConfigMap, %d thread%s", label, threads,
        threads == 1 ? "" : "s"));
    log("%s: creating %d ConfigMaps with %d threads", label, n, threads);
    double createSeconds = parallel(n, threads, i -> {
      long s = System.nanoTime();
      try {
        kube.configMaps().inNamespace(M_NAMESPACE).resource(new ConfigMapBuilder().withNewMetadata()
            .withName(prefix + i).addToLabels(BENCH_LABEL, "m").endMetadata()
            .addToData("key", "value").build()).create();
        create.add(System.nanoTime() - s);
      } catch (RuntimeException e) {
        errors.incrementAndGet();
      }
    });
    Stats delete = new Stats(Stats.f("%s: mock API delete ConfigMap, %d thread%s", label, threads,
        threads == 1 ? "" : "s"));
    double deleteSeconds = parallel(n, threads, i -> {
      long s = System.nanoTime();
      try {
        kube.configMaps().inNamespace(M_NAMESPACE).withName(prefix + i).delete();
        delete.add(System.nanoTime() - s);
      } catch (RuntimeException e) {
        errors.incrementAndGet();
      }
    });
    MockRate rate = new MockRate(create, createSeconds, delete, deleteSeconds, errors.get());
    rows.add(create.row(Stats.f("**%.0f creates/s**", rate.createsPerSecond())));
    if (!label.equals("M1")) {
      rows.add(delete.row(Stats.rate(delete.count(), deleteSeconds, "deletes")));
    }
    figures.put(label + ".creates_per_s", rate.createsPerSecond());
    figures.put(label + ".create_p50_ms", create.percentileMs(50));
    if (errors.get() > 0) {
      notes.add(label + ": " + errors.get() + " failed calls");
    }
    log("%s: %.0f creates/s, %.0f deletes/s", label, rate.createsPerSecond(), delete.count() / deleteSeconds);
    return rate;
  }

  /**
   * The mock alone, filled like P5 fills it: {@code n} small ConfigMaps into the (almost) empty store, rate per
   * 1,000 in completion order. This is the yardstick for P5: the time the mock needs just to store that much.
   */
  private void fill(int n, int threads) throws Exception {
    log("M (fill): creating %d ConfigMaps with %d threads, then deleting them", n, threads);
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(M_NAMESPACE)
        .addToLabels(BENCH_LABEL, "true").endMetadata().build()).createOr(NonDeletingOperation::update);
    String prefix = "f-" + run + "-";
    long[] doneAt = new long[n];
    AtomicInteger errors = new AtomicInteger();
    Stats create = new Stats(Stats.f("M (fill): mock API create ConfigMap into a growing store, %d threads",
        threads));
    long t0 = System.nanoTime();
    double seconds = parallel(n, threads, i -> {
      long s0 = System.nanoTime();
      try {
        kube.configMaps().inNamespace(M_NAMESPACE).resource(new ConfigMapBuilder().withNewMetadata()
            .withName(prefix + i).addToLabels(BENCH_LABEL, "m").endMetadata()
            .addToData("key", "value").build()).create();
        doneAt[i] = System.nanoTime();
        create.add(doneAt[i] - s0);
      } catch (RuntimeException e) {
        errors.incrementAndGet();
      }
    });
    Stats delete = new Stats(Stats.f("M (fill): mock API delete ConfigMap from it, %d threads", threads));
    double deleteSeconds = parallel(n, threads, i -> {
      long s0 = System.nanoTime();
      try {
        kube.configMaps().inNamespace(M_NAMESPACE).withName(prefix + i).delete();
        delete.add(System.nanoTime() - s0);
      } catch (RuntimeException e) {
        errors.incrementAndGet();
      }
    });
    long[] sorted = java.util.Arrays.stream(doneAt).filter(t -> t > 0).sorted().toArray();
    StringBuilder blocks = new StringBuilder();
    int block = Math.max(1, sorted.length / 10);
    for (int k = 0; k + block <= sorted.length; k += block) {
      long start = k == 0 ? t0 : sorted[k - 1];
      blocks.append(Stats.f("%s%.1f–%.1fk: %.0f/s", blocks.length() == 0 ? "" : ", ", k / 1000.0,
          (k + block) / 1000.0, block / ((sorted[k + block - 1] - start) / 1e9)));
    }
    rows.add(create.row(Stats.f("**%.0f creates/s** (mean over the fill)", create.count() / seconds)));
    rows.add(delete.row(Stats.rate(delete.count(), deleteSeconds, "deletes")));
    figures.put("Mfill.seconds", seconds);
    figures.put("Mfill.creates_per_s", create.count() / seconds);
    Double p5 = figures.get("P5.total_s");
    detail.append("### M (fill): the mock alone, filled as P5 fills it\n\n")
        .append(Stats.f("- %d ConfigMaps (%d threads) into the store took **%.1f s** (mean %.0f creates/s); rate"
            + " by store size: %s%n", create.count(), threads, seconds, create.count() / seconds, blocks))
        .append(p5 == null ? "" : Stats.f("- P5 stores the same number of objects (11 per catalog: 10 from the"
            + " service, the `-db-app` Secret from the simulator) and on top makes ≈ 6 more mock calls per catalog"
            + " (4–5 status writes of the simulator, the bucket Secret GET of each POST): P5 took %.1f s, %.1f × the"
            + " mock's bare fill time%n", p5, p5 / seconds))
        .append(errors.get() > 0 ? Stats.f("- %d failed calls%n", errors.get()) : "")
        .append('\n');
    log("M (fill): %.1f s, %s", seconds, blocks);
  }

  /** Runs {@code task(0..n-1)} on {@code threads} threads, each index once; returns the wall time in seconds. */
  static double parallel(int n, int threads, IntConsumer task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicInteger next = new AtomicInteger();
    long t0 = System.nanoTime();
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      futures.add(pool.submit(() -> {
        for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
          task.accept(i);
        }
      }));
    }
    pool.shutdown();
    if (!pool.awaitTermination(15, TimeUnit.MINUTES)) {
      pool.shutdownNow();
      throw new IllegalStateException("a parallel step did not finish within 15 min");
    }
    for (Future<?> f : futures) {
      f.get();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  // ---------------------------------------------------------------- P3

  private void p3(int n, MockRate m1, long catalogPid, long kubePid) throws Exception {
    log("P3: %d sequential catalogs in %s", n, P3_NAMESPACE);
    Path marks = work.resolve("phases.txt");
    Files.writeString(marks, "P3 start " + System.currentTimeMillis() + "\n", java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.APPEND);
    Stats post = new Stats("P3: create API, POST → 201 (idle, sequential)");
    Stats objects = new Stats("**P3: POST → all 7 base objects seen (informer)**");
    Stats root = new Stats("P3: POST → root ConfigMap seen (first apply)");
    Stats ready = new Stats("P3: POST → phase Ready (GET every 20 ms)");
    Map<String, Integer> lastKind = new TreeMap<>();
    int failed = 0;
    int timeouts = 0;
    StringBuilder csv = new StringBuilder("name,post_ms,root_ms,all_ms,last,ready_ms\n");
    long serviceTicks = 0;
    long kubeTicks = 0;
    int cpuSamples = 0;
    Map<String, Double> serviceThreads0 = ThreadCpu.snapshot(catalogPid);
    Map<String, Double> kubeThreads0 = ThreadCpu.snapshot(kubePid);
    long window0 = System.nanoTime();
    try (ObjectWatch watch = new ObjectWatch(kube, P3_NAMESPACE)) {
      for (int i = 0; i < n; i++) {
        String name = Stats.f("p3-%s-%03d", run, i);
        List<String> keys = ObjectWatch.baseObjects(name);
        long serviceBefore = Proc.cpuTicks(catalogPid);
        long kubeBefore = Proc.cpuTicks(kubePid);
        long t0 = System.nanoTime();
        HttpResponse<String> r = api.createCatalog(P3_NAMESPACE, name, bucketSecret(P3_NAMESPACE));
        long t1 = System.nanoTime();
        if (r.statusCode() != 201) {
          failed++;
          notes.add("P3 " + name + ": POST answered " + r.statusCode() + " " + r.body());
          continue;
        }
        created.add(new String[] {P3_NAMESPACE, name});
        post.add(t1 - t0);
        long all = watch.awaitAll(keys, t0 + TimeUnit.SECONDS.toNanos(30));
        String last = "";
        if (all < 0) {
          timeouts++;
        } else {
          serviceTicks += Proc.cpuTicks(catalogPid) - serviceBefore;
          kubeTicks += Proc.cpuTicks(kubePid) - kubeBefore;
          cpuSamples++;
          objects.add(all - t0);
          Long rootSeen = watch.seen(keys.get(0));
          root.add(rootSeen - t0);
          for (String k : keys) {
            if (watch.seen(k) == all) {
              last = k.substring(0, k.indexOf('/'));
            }
          }
          lastKind.merge(last, 1, Integer::sum);
        }
        long readyAt = -1;
        long deadline = t0 + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
          long tick = System.nanoTime();
          if ("Ready".equals(api.phase(P3_NAMESPACE, name))) {
            readyAt = System.nanoTime();
            ready.add(readyAt - t0);
            break;
          }
          long sleep = TimeUnit.MILLISECONDS.toNanos(20) - (System.nanoTime() - tick);
          if (sleep > 0) {
            TimeUnit.NANOSECONDS.sleep(sleep);
          }
        }
        csv.append(Stats.f("%s,%.2f,%.2f,%.2f,%s,%.2f%n", name, (t1 - t0) / 1e6,
            all < 0 ? -1.0 : (watch.seen(keys.get(0)) - t0) / 1e6, all < 0 ? -1.0 : (all - t0) / 1e6, last,
            readyAt < 0 ? -1.0 : (readyAt - t0) / 1e6));
        Thread.sleep(200); // let trailing events settle: every request meets an idle system
      }
    }
    double seconds = (System.nanoTime() - window0) / 1e9;
    log("P3: done");
    Map<String, Double> serviceThreads1 = ThreadCpu.snapshot(catalogPid);
    Map<String, Double> kubeThreads1 = ThreadCpu.snapshot(kubePid);
    Files.writeString(work.resolve("p3.csv"), csv.toString());
    rows.add(post.row(Stats.rate(post.count(), seconds, "req") + " (sequential, incl. waits)"));
    rows.add(objects.row(Stats.f("%.0f catalogs/s one at a time (1 / p50)", 1000 / objects.percentileMs(50))));
    rows.add(root.row("–"));
    rows.add(ready.row("–"));
    figures.put("P3.objects_p50_ms", objects.percentileMs(50));
    figures.put("P3.objects_p99_ms", objects.percentileMs(99));
    figures.put("P3.post_p50_ms", post.percentileMs(50));
    figures.put("P3.ready_p50_ms", ready.percentileMs(50));
    figures.put("P3.service_cpu_ms_per_catalog", serviceTicks * 1000 / Proc.TICKS_PER_SECOND / Math.max(1, cpuSamples));
    boolean p50ok = objects.percentileMs(50) <= 20;
    boolean p99ok = objects.percentileMs(99) <= 75;
    detail.append("### P3: request → all Kubernetes objects exist (idle system)\n\n")
        .append(Stats.f("- target p50 ≤ 20 ms: **%s** (%s ms); target p99 ≤ 75 ms: **%s** (%s ms)%n",
            p50ok ? "met" : "missed", Stats.ms(objects.percentileMs(50)), p99ok ? "met" : "missed",
            Stats.ms(objects.percentileMs(99))))
        .append(Stats.f("- the 7 base objects: ConfigMap `<name>-instance`, Secrets `<name>-root-principal` and"
            + " `<name>-token-broker`, CNPG Cluster `<name>-db`, Deployment, Service and Ingress `<name>`;"
            + " the clock stops when the benchmark's own informer (watch on `%s`) has seen the last one%n",
            P3_NAMESPACE))
        .append(Stats.f("- last object to appear: %s%n", lastKind.entrySet().stream()
            .map(e -> e.getKey() + " " + e.getValue() + "×").collect(Collectors.joining(", "))))
        .append(Stats.f("- the two Jobs (`-realm-init`, `-catalog-init`) are not base objects: they are gated on"
            + " database and server readiness by design, hence the separate POST → Ready row%n"))
        .append(Stats.f("- mock floor: 7 sequential creates at the M1 p50 (%.2f ms each) ≈ %.1f ms%n",
            m1.create().percentileMs(50), 7 * m1.create().percentileMs(50)))
        .append(Stats.f("- CPU from POST to the last object seen, mean per catalog: catalog-service %.0f ms,"
            + " local Kubernetes API (mock + simulator) %.0f ms (from /proc, 10 ms ticks)%n",
            cpuSamples == 0 ? Double.NaN : serviceTicks * 1000 / Proc.TICKS_PER_SECOND / cpuSamples,
            cpuSamples == 0 ? Double.NaN : kubeTicks * 1000 / Proc.TICKS_PER_SECOND / cpuSamples))
        .append(Stats.f("%nCPU of the whole P3 loop by thread (POST, reconcile, Ready polling every 20 ms, 200 ms"
            + " pauses; from jstack), per catalog:%n%n"))
        .append(ThreadCpu.table("catalog-service", serviceThreads0, serviceThreads1, n, "per catalog")).append('\n')
        .append(ThreadCpu.table("local Kubernetes API", kubeThreads0, kubeThreads1, n, "per catalog")).append('\n')
        .append(failed + timeouts > 0 ? Stats.f("- %d POSTs failed, %d catalogs timed out (30 s)%n", failed,
            timeouts) : "")
        .append('\n');
  }

  // ---------------------------------------------------------------- P5

  private void p5(List<String> namespaces, int n, int threads, MockRate m, long catalogPid, long kubePid)
      throws Exception {
    log("P5: %d catalogs over %d namespaces, %d POST threads", n, namespaces.size(), threads);
    long heapBefore = Proc.heapUsedAfterGcKb(catalogPid);
    long rssBefore = Proc.rssKb(catalogPid);
    long logOffset = Files.size(home.resolve("logs/catalog.log"));
    Map<String, Double> serviceThreads0 = ThreadCpu.snapshot(catalogPid);
    Map<String, Double> kubeThreads0 = ThreadCpu.snapshot(kubePid);
    long[] cpuBefore = cpuSnapshot(catalogPid, kubePid);
    long[] machineBefore = Proc.machineTicks();

    String[] names = new String[n];
    long[] postStart = new long[n];
    boolean[] accepted = new boolean[n];
    Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
    Stats post = new Stats(Stats.f("P5: create API, POST → 201 (%d threads, burst)", threads));
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < n; i++) {
      names[i] = Stats.f("p5-%s-%04d", run, i);
      index.put(names[i], i);
    }
    AtomicLong postsDone = new AtomicLong(-1);
    long t0 = System.nanoTime();

    ExecutorService side = Executors.newFixedThreadPool(2);
    int dumps = opt("thread-dumps", 0);
    Future<?> dumper = side.submit(() -> {
      for (int k = 0; k < dumps; k++) {
        sleepUntil(t0 + TimeUnit.MILLISECONDS.toNanos(1000 + 2000L * k));
        Proc.threadDump(catalogPid, work.resolve(Stats.f("jstack-catalog-%d.txt", k)));
        Proc.threadDump(kubePid, work.resolve(Stats.f("jstack-kube-%d.txt", k)));
      }
      return null;
    });
    Future<Double> posting = side.submit(() -> {
      double s = parallel(n, threads, i -> {
        String ns = namespaces.get(i % namespaces.size());
        long s0 = System.nanoTime();
        postStart[i] = s0;
        HttpResponse<String> r = api.createCatalog(ns, names[i], bucketSecret(ns));
        statuses.merge(r.statusCode(), 1, Integer::sum);
        if (r.statusCode() == 201) {
          post.add(System.nanoTime() - s0);
          accepted[i] = true;
          created.add(new String[] {ns, names[i]});
        }
      });
      postsDone.set(System.nanoTime());
      return s;
    });

    // Convergence: a list per namespace every 500 ms, bounded to 10 min.
    long[] readyAt = new long[n];
    List<String> timeline = new ArrayList<>();
    long deadline = t0 + TimeUnit.MINUTES.toNanos(10);
    long lastReady = -1;
    int round = 0;
    int readyCount = 0;
    Map<String, Integer> readyIn = new HashMap<>();
    Map<String, Integer> doneIn = new HashMap<>();
    int lists = 0;
    int listedItems = 0;
    while (System.nanoTime() < deadline) {
      sleepUntil(t0 + TimeUnit.MILLISECONDS.toNanos(500L * ++round));
      Map<String, Integer> phases = new TreeMap<>();
      for (String ns : namespaces) {
        if (doneIn.containsKey(ns)) {
          phases.merge("Ready", doneIn.get(ns), Integer::sum);
          continue; // every instance of this namespace is Ready: no need to keep asking
        }
        JsonNode items = api.list(ns);
        lists++;
        listedItems += items.size();
        long seenAt = System.nanoTime();
        int readyHere = 0;
        for (JsonNode item : items) {
          String phase = item.path("status").path("phase").asText();
          readyHere += "Ready".equals(phase) ? 1 : 0;
          phases.merge(phase, 1, Integer::sum);
          Integer i = index.get(item.path("name").asText());
          if (i != null && "Ready".equals(phase) && readyAt[i] == 0) {
            readyAt[i] = seenAt;
            readyCount++;
            lastReady = seenAt;
          }
        }
        readyIn.put(ns, readyHere);
        if (postsDone.get() > 0 && readyHere == items.size()) {
          doneIn.put(ns, readyHere);
        }
      }
      timeline.add(Stats.f("| %.1f | %s |", (System.nanoTime() - t0) / 1e9, phases.entrySet().stream()
          .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "))));
      if (postsDone.get() > 0) {
        int acceptedCount = 0;
        for (boolean a : accepted) {
          acceptedCount += a ? 1 : 0;
        }
        if (readyCount >= acceptedCount) {
          break;
        }
      }
    }
    double postSeconds = posting.get(1, TimeUnit.MINUTES);
    dumper.get(2, TimeUnit.MINUTES);
    side.shutdown();
    long[] cpuAfter = cpuSnapshot(catalogPid, kubePid);
    long[] machineAfter = Proc.machineTicks();
    Map<String, Double> serviceThreads1 = ThreadCpu.snapshot(catalogPid);
    Map<String, Double> kubeThreads1 = ThreadCpu.snapshot(kubePid);
    long rssAfter = Proc.rssKb(catalogPid);
    long heapAfter = Proc.heapUsedAfterGcKb(catalogPid);
    Files.writeString(work.resolve("class-histogram-after-p5.txt"),
        Proc.run(List.of("jcmd", Long.toString(catalogPid), "GC.class_histogram")));
    // What the convergence polling itself cost the service: the same list calls on the now idle system.
    long calibrationTicks = Proc.cpuTicks(catalogPid);
    long calibration0 = System.nanoTime();
    for (int k = 0; k < 200; k++) {
      api.list(namespaces.get(k % namespaces.size()));
    }
    double msPerList = (System.nanoTime() - calibration0) / 1e6 / 200;
    int perNs = (int) Math.ceil(n / (double) namespaces.size());
    double cpuMsPerList = (Proc.cpuTicks(catalogPid) - calibrationTicks) * 1000 / Proc.TICKS_PER_SECOND / 200;

    int acceptedCount = 0;
    Stats converge = new Stats("**P5: POST → phase Ready seen (list every 500 ms)**");
    StringBuilder csv = new StringBuilder("name,post_start_ms,ready_ms\n");
    for (int i = 0; i < n; i++) {
      if (!accepted[i]) {
        continue;
      }
      acceptedCount++;
      if (readyAt[i] > 0) {
        converge.add(readyAt[i] - postStart[i]);
      }
      csv.append(Stats.f("%s,%.1f,%.1f%n", names[i], (postStart[i] - t0) / 1e6,
          readyAt[i] > 0 ? (readyAt[i] - t0) / 1e6 : -1.0));
    }
    Files.writeString(work.resolve("p5.csv"), csv.toString());
    boolean allReady = readyCount == acceptedCount && acceptedCount == n;
    double total = ((allReady ? lastReady : System.nanoTime()) - t0) / 1e9;
    double perSecond = readyCount / total;
    double serviceCreates = perSecond * SERVICE_CREATES_PER_CATALOG;
    double fractionOfM = serviceCreates / m.createsPerSecond();
    figures.put("P5.total_s", total);
    figures.put("P5.converged_per_s", perSecond);
    figures.put("P5.fraction_of_M", fractionOfM);
    figures.put("P5.post_per_s", post.count() / postSeconds);

    rows.add(post.row(Stats.f("%.0f creates/s", post.count() / postSeconds)));
    rows.add(converge.row(Stats.f("**%.1f catalogs/s**", perSecond)));

    double window = (machineAfter[1] - machineBefore[1]) / Proc.TICKS_PER_SECOND;
    String[] who = {"catalog-service", "local Kubernetes API (mock + simulator)", "PostgreSQL (all backends)",
        "Kafka", "benchmark client"};
    StringBuilder cpu = new StringBuilder("| process | CPU s | share of the 2-core window |\n|---|---:|---:|\n");
    for (int k = 0; k < who.length; k++) {
      double s = (cpuAfter[k] - cpuBefore[k]) / Proc.TICKS_PER_SECOND;
      cpu.append(Stats.f("| %s | %.1f | %.0f %% |%n", who[k], s, 100 * s / Math.max(0.01, window)));
    }
    double busy = (machineAfter[0] - machineBefore[0]) / Proc.TICKS_PER_SECOND;
    cpu.append(Stats.f("| whole machine (incl. other engineers' builds) | %.1f | %.0f %% |%n", busy,
        100 * busy / Math.max(0.01, window)));

    int objectsPerCatalog = countManagedObjects(namespaces.get(0));
    detail.append("### P5: burst of ").append(n).append(" catalogs over ").append(namespaces.size())
        .append(" namespaces\n\n")
        .append(Stats.f("- target 1,000 ≤ 20 s: **%s** — all %d Ready after **%.1f s** (POSTs done after %.1f s;"
                + " statuses %s)%n", allReady && total <= 20 * n / 1000.0 ? "met" : "missed", readyCount, total,
            postSeconds, statuses))
        .append(Stats.f("- converged: **%.1f catalogs/s**; the service created %.0f objects/s (%d creates per"
                + " catalog) = **%.2f × M** (M = %.0f creates/s, 4 threads, empty store)%n", perSecond,
            serviceCreates, SERVICE_CREATES_PER_CATALOG, fractionOfM, m.createsPerSecond()))
        .append(Stats.f("- objects labelled managed-by=catalog-service in `%s` after convergence: %d for %d"
            + " catalogs (%.1f each)%n", namespaces.get(0), objectsPerCatalog, perNs, objectsPerCatalog
            / (double) perNs))
        .append(Stats.f("- catalog-service RSS %.0f → %.0f MiB (%+.1f KiB per instance); heap used after a"
                + " full GC %.1f → %.1f MiB (**%+.1f KiB per instance**)%n", rssBefore / 1024.0,
            rssAfter / 1024.0, (rssAfter - rssBefore) / (double) n, heapBefore / 1024.0, heapAfter / 1024.0,
            (heapAfter - heapBefore) / (double) n))
        .append(Stats.f("- observer cost: %d list calls (%d items) during convergence; one list of %d costs"
                + " catalog-service %.1f ms CPU (%.1f ms wall, measured afterwards on the idle system), so the"
                + " polling took ≈ %.0f CPU s of the service's share below%n", lists, listedItems, perNs,
            cpuMsPerList, msPerList, lists * cpuMsPerList / 1000))
        .append("\nCPU used from the first POST to the last Ready:\n\n").append(cpu)
        .append("\nThe same window by thread (from jstack), per catalog:\n\n")
        .append(ThreadCpu.table("catalog-service", serviceThreads0, serviceThreads1, n, "per catalog")).append('\n')
        .append(ThreadCpu.table("local Kubernetes API", kubeThreads0, kubeThreads1, n, "per catalog"))
        .append(Stats.f("%nPhases over time (one poll in %d shown):%n%n| s | instances by phase |%n|---:|---|%n",
            Math.max(1, (int) Math.ceil(timeline.size() / 30.0))));
    int every = Math.max(1, (int) Math.ceil(timeline.size() / 30.0));
    for (int k = 0; k < timeline.size(); k++) {
      if (k % every == every - 1 || k == timeline.size() - 1) {
        detail.append(timeline.get(k)).append('\n');
      }
    }
    detail.append('\n').append(logSummary(logOffset, "P5")).append('\n');
    figures.put("P5.rss_before_kb", (double) rssBefore);
    figures.put("P5.rss_after_kb", (double) rssAfter);
    figures.put("P5.heap_per_instance_kb", (heapAfter - heapBefore) / (double) n);
    figures.put("P5.service_cpu_s", (cpuAfter[0] - cpuBefore[0]) / Proc.TICKS_PER_SECOND);
    figures.put("P5.kube_cpu_s", (cpuAfter[1] - cpuBefore[1]) / Proc.TICKS_PER_SECOND);
    figures.put("P5.observer_cpu_s", lists * cpuMsPerList / 1000);
    log("P5: %d/%d Ready after %.1f s (%.1f/s)", readyCount, acceptedCount, total, perSecond);
  }

  private int countManagedObjects(String namespace) {
    String label = "app.kubernetes.io/managed-by";
    int count = kube.configMaps().inNamespace(namespace).withLabel(label, "catalog-service").list().getItems()
        .size();
    count += kube.secrets().inNamespace(namespace).withLabel(label, "catalog-service").list().getItems().size();
    count += kube.apps().deployments().inNamespace(namespace).withLabel(label, "catalog-service").list().getItems()
        .size();
    count += kube.services().inNamespace(namespace).withLabel(label, "catalog-service").list().getItems().size();
    count += kube.network().v1().ingresses().inNamespace(namespace).withLabel(label, "catalog-service").list()
        .getItems().size();
    count += kube.batch().v1().jobs().inNamespace(namespace).withLabel(label, "catalog-service").list().getItems()
        .size();
    count += kube.genericKubernetesResources(ObjectWatch.CNPG_CLUSTER).inNamespace(namespace)
        .withLabel(label, "catalog-service").list().getItems().size();
    return count;
  }

  /** CPU ticks: catalog-service, kube, postgres, kafka, this JVM. */
  private long[] cpuSnapshot(long catalogPid, long kubePid) {
    long kafka = Proc.pidFromFile(home.resolve("run/kafka.pid")).map(Proc::cpuTicks).orElse(0L);
    return new long[] {Proc.cpuTicks(catalogPid), Proc.cpuTicks(kubePid), Proc.cpuTicksOfAll("postgres"), kafka,
        Proc.cpuTicks(ProcessHandle.current().pid())};
  }

  private String logSummary(long offset, String phase) throws IOException {
    Path file = home.resolve("logs/catalog.log");
    String text;
    try (var in = Files.newInputStream(file)) {
      in.skipNBytes(Math.min(offset, Files.size(file)));
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Map<String, Integer> kinds = new TreeMap<>();
    int warn = 0;
    int error = 0;
    for (String line : text.split("\n")) {
      boolean w = line.contains(" WARN ");
      boolean e = line.contains(" ERROR ");
      if (!w && !e) {
        continue;
      }
      warn += w ? 1 : 0;
      error += e ? 1 : 0;
      String shape = line.replaceFirst("^\\S+ \\S+ ", "").replaceAll("p[35]-[a-z0-9]{4}-\\d+", "<name>")
          .replaceAll("bench-p[0-9-]+", "<ns>").replaceAll("\\d+", "N");
      kinds.merge(shape.length() > 200 ? shape.substring(0, 200) + "…" : shape, 1, Integer::sum);
    }
    StringBuilder s = new StringBuilder(Stats.f("catalog.log during %s: %d WARN, %d ERROR lines%n", phase, warn,
        error));
    kinds.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(6)
        .forEach(k -> s.append(Stats.f("- %d× `%s`%n", k.getValue(), k.getKey().replace('`', '\''))));
    return s.toString();
  }

  // ---------------------------------------------------------------- cleanup

  private void cleanup(List<String> namespaces) throws Exception {
    List<String[]> all = new ArrayList<>(created);
    log("cleanup: deleting %d instances", all.size());
    long logOffset = Files.size(home.resolve("logs/catalog.log"));
    Stats delete = new Stats("Cleanup: DELETE → 202 (8 threads)");
    Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
    long t0 = System.nanoTime();
    double deleteSeconds = parallel(all.size(), 8, i -> {
      String[] k = all.get(i);
      long s = System.nanoTime();
      HttpResponse<String> r = api.delete(api.instances(k[0]) + "/" + k[1]);
      statuses.merge(r.statusCode(), 1, Integer::sum);
      if (r.statusCode() == 202) {
        delete.add(System.nanoTime() - s);
      }
    });
    long deadline = t0 + TimeUnit.MINUTES.toNanos(10);
    int left = -1;
    int round = 0;
    int lastLeft = -1;
    long lastProgress = System.nanoTime();
    boolean stalled = false;
    while (System.nanoTime() < deadline) {
      sleepUntil(t0 + TimeUnit.MILLISECONDS.toNanos(500L * ++round));
      left = 0;
      for (String ns : namespaces) {
        for (JsonNode item : api.list(ns)) {
          left += item.path("name").asText().contains("-" + run + "-") ? 1 : 0;
        }
      }
      if (left == 0) {
        break;
      }
      if (left != lastLeft) {
        lastLeft = left;
        lastProgress = System.nanoTime();
      } else if (System.nanoTime() - lastProgress > TimeUnit.SECONDS.toNanos(90)) {
        stalled = true; // no instance went away for 90 s: stuck, not slow
        break;
      }
    }
    double gone = (System.nanoTime() - t0) / 1e9;
    List<String> stuck = new ArrayList<>();
    for (String ns : namespaces) {
      for (JsonNode item : api.list(ns)) {
        if (item.path("name").asText().contains("-" + run + "-")) {
          stuck.add(ns + "/" + item.path("name").asText() + " (" + item.path("status").path("phase").asText() + ")");
        }
      }
    }
    if (!stuck.isEmpty()) {
      notes.add(Stats.f("cleanup: %d instances still listed after %.0f s (%s): %s", stuck.size(), gone,
          stalled ? "none went away for 90 s" : "10 min bound", stuck.stream().limit(20)
              .collect(Collectors.joining(", "))));
      figures.put("cleanup.stuck", (double) stuck.size());
    }
    rows.add(delete.row(Stats.rate(delete.count(), deleteSeconds, "deletes")));
    figures.put("cleanup.total_s", gone);
    // What the service left behind (should be nothing but the bucket Secrets), then remove the namespaces.
    Map<String, Integer> orphans = new TreeMap<>();
    for (String ns : namespaces) {
      List<HasMetadata> objects = new ArrayList<>();
      objects.addAll(kube.configMaps().inNamespace(ns).list().getItems());
      objects.addAll(kube.secrets().inNamespace(ns).list().getItems());
      objects.addAll(kube.apps().deployments().inNamespace(ns).list().getItems());
      objects.addAll(kube.services().inNamespace(ns).list().getItems());
      objects.addAll(kube.network().v1().ingresses().inNamespace(ns).list().getItems());
      objects.addAll(kube.batch().v1().jobs().inNamespace(ns).list().getItems());
      objects.addAll(kube.genericKubernetesResources(ObjectWatch.CNPG_CLUSTER).inNamespace(ns).list().getItems());
      for (HasMetadata o : objects) {
        if (o.getMetadata().getName().equals(bucketSecret(ns))) {
          continue;
        }
        orphans.merge(o.getKind(), 1, Integer::sum);
        kube.resource(o).delete();
      }
      kube.secrets().inNamespace(ns).withName(bucketSecret(ns)).delete();
      kube.namespaces().withName(ns).delete();
    }
    kube.namespaces().withName(M_NAMESPACE).delete();
    detail.append("### Cleanup\n\n")
        .append(Stats.f("- %d DELETEs (statuses %s) sent in %.1f s; %s after %.1f s%n", all.size(), statuses,
            deleteSeconds, left == 0 ? "every instance gone (list empty)" : left + " instances still listed",
            gone))
        .append(Stats.f("- objects left in the benchmark namespaces afterwards (besides the bucket Secrets): %s%n",
            orphans.isEmpty() ? "none" : orphans.toString()))
        .append('\n').append(logSummary(logOffset, "cleanup")).append('\n');
    log("cleanup: %d gone after %.1f s, %d left, orphans %s", all.size(), gone, left, orphans);
  }

  static void sleepUntil(long nanoTime) {
    long left = nanoTime - System.nanoTime();
    if (left > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
