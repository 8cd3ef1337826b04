package io.lakehouse.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

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

  private final Map<String, String> opts;
  private final Path home;
  private final Path work;
  private final KubernetesClient kube;
  private final Api api;
  private final Events events;
  private final String run;
  private final List<String> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final StringBuilder detail = new StringBuilder();
  private final Map<String, Double> figures = new LinkedHashMap<>();
  /** namespace, kind, name of every instance this run created. */
  private final List<String[]> created = Collections.synchronizedList(new ArrayList<>());
  private final List<String> namespaces = Collections.synchronizedList(new ArrayList<>());

  private EnginesBench(Map<String, String> opts) {
    this.opts = opts;
    this.home = Path.of(opts.getOrDefault("home", ".local")).toAbsolutePath();
    this.work = Path.of(opts.getOrDefault("work", "deploy/benchmarks/target/engines")).toAbsolutePath();
    this.kube = BenchCli.kube(opts);
    String tokenCommand = opts.get("token-command");
    String token = BenchCli.token(opts, home);
    this.api = new Api(opts.getOrDefault("api", "http://127.0.0.1:8082"), token);
    this.events = new Events(opts.getOrDefault("kafka", "127.0.0.1:59092"));
    this.run = BenchCli.runId();
  }


  public static void main(String[] argv) throws Exception {
    Map<String, String> opts = BenchCli.options(argv);
    EnginesBench bench = new EnginesBench(opts);
    int rc;
    try {
      rc = bench.runAll();
    } finally {
      bench.events.close();
      bench.kube.close();
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
      log("engines-service is not ready on /q/health/ready: start it first (deploy/benchmarks/run --engines does)");
      return 1;
    }
    int auth = api.get(api.instances("default", "trino")).statusCode();
    if (auth != 200) {
      log("engines-service answers %d to the benchmark's token (Keycloak tokens? pass --token-command)", auth);
      return 1;
    }
    long pid = Proc.pidFromFile(home.resolve("run/engines.pid"))
        .orElseThrow(() -> new IllegalStateException("no running engines-service (run/engines.pid)"));
    long kubePid = Proc.pidFromFile(home.resolve("run/kube.pid"))
        .orElseThrow(() -> new IllegalStateException("no running local Kubernetes API (run/kube.pid)"));
    String header = environment(loadAtStart, pid, kubePid);
    log("run id %s; load average at start %s", run, loadAtStart);
    long logOffset = logSize();
    int exit = 0;
    try {
      // Warm-up (not measured): every kind through its whole life once, in two namespaces of its own.
      List<String> warm = prepareNamespaces("bew-" + run, 2);
      List<String> trinoKeys = null;
      int warmN = opt("warm-up", 40);
      if (warmN > 0) {
        log("warm-up: %d instances of the four kinds (not measured)", warmN);
        Burst w = burst(warm, warmN, 4, "w", 180);
        notReady(w, "warm-up");
        log("warm-up: %d/%d Ready after %.1f s", w.ready, w.acceptedCount, w.seconds);
        trinoKeys = discoverTrinoObjects(w);
        deleteInstances(new ArrayList<>(created), "warm-up");
        created.clear();
      }
      if (trinoKeys == null || trinoKeys.isEmpty()) {
        trinoKeys = List.of("ConfigMap/-instance", "ConfigMap/-config", "ConfigMap/-worker-config",
            "ConfigMap/-catalog", "Secret/-internal", "Secret/-tls", "Deployment/", "Deployment/-worker", "Service/",
            "Ingress/");
        notes.add("the Trino object list was not taken from the warm-up: the documented list was used");
      }
      if (opt("p3", 50) > 0) {
        p3(opt("p3", 50), trinoKeys, pid, kubePid);
      }
      if (opt("p5", 200) > 0) {
        p5(opt("p5", 200), opt("p5-namespaces", 10), opt("p5-threads", 8), pid, kubePid);
      }
    } catch (RuntimeException e) {
      log("benchmark failed: %s", e);
      notes.add("the run stopped early: " + e);
      exit = 1;
    } finally {
      cleanup();
    }
    detail.append(logSummary(logOffset));

    StringBuilder md = new StringBuilder(header).append('\n');
    md.append("### Results\n\n").append(Stats.header()).append('\n');
    rows.forEach(r -> md.append(r).append('\n'));
    md.append('\n').append(detail);
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
    return exit;
  }

  // ---------------------------------------------------------------- environment

  private String environment(String load, long pid, long kubePid) {
    String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
    String cmd = Proc.cmdline(pid);
    String kubeCmd = Proc.cmdline(kubePid);
    String delay = kubeCmd.replaceAll(".*--delay-ms (\\d+).*", "$1");
    if (delay.equals(kubeCmd)) {
      delay = "1000 (default)";
    }
    figures.put("simulator_delay_ms", delay.matches("\\d+") ? Double.parseDouble(delay) : 1000);
    String heap = cmd.matches(".*-Xmx\\S+.*") ? cmd.replaceAll(".*(-Xmx\\S+).*", "$1") : "default heap";
    StringBuilder stack = new StringBuilder();
    try (var pids = Files.list(home.resolve("run"))) {
      pids.filter(p -> p.getFileName().toString().endsWith(".pid")).sorted().forEach(p -> Proc.pidFromFile(p)
          .ifPresent(q -> stack.append(stack.length() == 0 ? "" : ", ")
              .append(p.getFileName().toString().replace(".pid", ""))
              .append(Stats.f(" (RSS %.0f MiB)", Proc.rssKb(q) / 1024.0))));
    } catch (IOException e) {
      stack.append("?");
    }
    return "## Latest engines run: " + date + "\n\n"
        + "| | |\n|---|---|\n"
        + "| machine | " + Runtime.getRuntime().availableProcessors() + " cores (nproc), " + Proc.memTotal()
        + " memory, " + Proc.cpuModel() + " |\n"
        + "| load average at start | " + load + " (1, 5, 15 min; other builds share the machine) |\n"
        + "| Java | " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " |\n"
        + "| settings | simulator delay " + delay + " ms; engines-service " + heap + " |\n"
        + "| stack processes at start | " + stack + " |\n"
        + "| code | " + opts.getOrDefault("commit", "?") + " |\n"
        + "| run id | `" + run + "` (namespaces `be3-" + run + "-NNN`, `be5-" + run + "-N`) |\n"
        + "| stand-ins | catalog: `instance.ready` of iceberg-catalog `" + CATALOG + "` published by the benchmark"
        + " (as catalog-service does) + bucket Secret `" + BUCKET_SECRET + "`; OIDC client of each trino / nifi:"
        + " `<name>-oidc` Secret + `access.oidc-client-ready` published by the benchmark right after the 201 (as"
        + " access-service does once Keycloak has the client) |\n";
  }

  // ---------------------------------------------------------------- namespaces, catalog, OIDC client

  /** {@code count} fresh namespaces, each with a bucket Secret and a Ready catalog engines-service knows. */
  private List<String> prepareNamespaces(String prefix, int count) throws InterruptedException {
    List<String> list = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String ns = count == 1 ? prefix : prefix + "-" + (count > 10 ? Stats.f("%03d", i) : Integer.toString(i));
      list.add(ns);
      namespaces.add(ns);
      kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns)
          .addToLabels(Main.BENCH_LABEL, "true").endMetadata().build()).createOr(NonDeletingOperation::update);
      kube.secrets().inNamespace(ns).resource(new SecretBuilder()
          .withNewMetadata().withName(BUCKET_SECRET).withNamespace(ns)
          .addToLabels("lakehouse.io/bucket", "true").addToLabels(Main.BENCH_LABEL, "true").endMetadata()
          .withType("Opaque")
          .addToData("AWS_ACCESS_KEY_ID", b64("bench-access-key"))
          .addToData("AWS_SECRET_ACCESS_KEY", b64("bench-secret-key"))
          .build()).createOr(NonDeletingOperation::update);
      events.send(Events.INSTANCES, "/lakehouse/catalog-service", "lakehouse.instance.ready.v1",
          ns + "/iceberg-catalog/" + CATALOG, catalogData(ns, "Ready"));
    }
    awaitCatalogs(list);
    return list;
  }

  /** As catalog-service publishes a catalog (engines-service {@code Api.catalogEvent}). */
  private ObjectNode catalogData(String ns, String phase) {
    ObjectNode data = api.json().createObjectNode().put("namespace", ns).put("kind", "iceberg-catalog")
        .put("name", CATALOG).put("generation", 1).put("phase", phase).put("createdBy", "bench");
    data.putArray("conditions");
    data.putObject("spec").put("catalogName", "lakehouse").put("realm", "POLARIS").put("bucket", "warehouse")
        .put("endpoint", "http://minio." + ns + ".svc:9000").put("region", "us-east-1")
        .put("pathStyleAccess", true).put("storageSecret", BUCKET_SECRET)
        .put("internalUri", "http://" + CATALOG + "." + ns + ".svc:8181/api/catalog")
        .put("rootPrincipalSecret", CATALOG + "-root-principal");
    return data;
  }

  /**
   * Waits (bounded, 60 s) until engines-service has stored the catalogs: a dry POST would create an instance, so this
   * reads its table {@code engines.catalogs} through the local cluster's psql.
   */
  private void awaitCatalogs(List<String> list) throws InterruptedException {
    String psql = AuthzBench.psql();
    if (psql == null) {
      Thread.sleep(3000);
      notes.add("psql of the local PostgreSQL not found: waited 3 s for the catalog events instead of checking");
      return;
    }
    String in = list.stream().map(ns -> "'" + ns + "'").collect(Collectors.joining(","));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      String out = Proc.run(List.of("bash", "-c", "PGPASSWORD=postgres '" + psql + "' -h 127.0.0.1 -p "
          + opts.getOrDefault("pg-port", "55432") + " -U postgres -d lakehouse -Atc \"SELECT count(*) FROM"
          + " engines.catalogs WHERE name = '" + CATALOG + "' AND phase = 'Ready' AND namespace IN (" + in + ")\""
          + " 2>&1")).trim();
      if (out.equals(Integer.toString(list.size()))) {
        return;
      }
      if (!out.matches("\\d+")) {
        throw new IllegalStateException("cannot read engines.catalogs: " + out);
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("engines-service did not store the catalogs of " + list + " within 60 s");
  }

  /** What access-service does once Keycloak has the client: the {@code <name>-oidc} Secret, then the event. */
  private void oidcClientReady(String ns, String kind, String name) {
    String clientId = ns + "-" + name + "-" + kind;
    kube.secrets().inNamespace(ns).resource(new SecretBuilder()
        .withNewMetadata().withName(name + "-oidc").withNamespace(ns).addToLabels(Main.BENCH_LABEL, "true")
        .endMetadata()
        .addToData("clientId", b64(clientId))
        .addToData("clientSecret", b64("bench-oidc-client-secret"))
        .addToData("issuer", b64("https://keycloak.example/realms/lakehouse"))
        .build()).createOr(NonDeletingOperation::update);
    events.send(Events.ACCESS, "/lakehouse/access-service", "lakehouse.access.oidc-client-ready.v1",
        ns + "/" + kind + "/" + name, api.json().createObjectNode().put("namespace", ns).put("kind", kind)
            .put("name", name).put("clientId", clientId).put("secretName", name + "-oidc"));
  }

  private static String b64(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }

  /** The create request of each kind: a catalog for trino and spark-connect, a storage block for mlflow. */
  private ObjectNode request(String ns, String kind, String name) {
    ObjectNode body = api.json().createObjectNode().put("name", name);
    ObjectNode spec = body.putObject("spec");
    switch (kind) {
      case "trino", "spark-connect" -> spec.put("catalog", CATALOG);
      case "mlflow" -> spec.putObject("storage").put("bucket", "mlflow").put("endpoint", "http://minio." + ns
          + ".svc:9000").put("region", "us-east-1").put("credentialsSecret", BUCKET_SECRET);
      default -> {
        // nifi: the defaults
      }
    }
    return body;
  }

  private static boolean needsOidc(String kind) {
    return kind.equals("trino") || kind.equals("nifi");
  }

  // ---------------------------------------------------------------- P3-trino

  /**
   * The objects of the first warm-up Trino as {@code Kind/<suffix>} ("Deployment/-worker"): every object labelled
   * with its instance name and managed by engines-service, of the kinds {@link ObjectWatch} follows.
   */
  private List<String> discoverTrinoObjects(Burst w) {
    for (int i = 0; i < w.names.length; i++) {
      if (!w.kinds[i].equals("trino") || w.readyAt[i] == 0) {
        continue;
      }
      String ns = w.ns[i];
      String name = w.names[i];
      List<HasMetadata> objects = new ArrayList<>();
      objects.addAll(kube.configMaps().inNamespace(ns).withLabel(INSTANCE, name).list().getItems());
      objects.addAll(kube.secrets().inNamespace(ns).withLabel(INSTANCE, name).list().getItems());
      objects.addAll(kube.apps().deployments().inNamespace(ns).withLabel(INSTANCE, name).list().getItems());
      objects.addAll(kube.services().inNamespace(ns).withLabel(INSTANCE, name).list().getItems());
      objects.addAll(kube.network().v1().ingresses().inNamespace(ns).withLabel(INSTANCE, name).list().getItems());
      int unwatched = kube.apps().statefulSets().inNamespace(ns).withLabel(INSTANCE, name).list().getItems().size()
          + kube.batch().v1().jobs().inNamespace(ns).withLabel(INSTANCE, name).list().getItems().size()
          + kube.network().v1().networkPolicies().inNamespace(ns).withLabel(INSTANCE, name).list().getItems().size();
      if (unwatched > 0) {
        notes.add(unwatched + " objects of a Trino instance are of kinds the benchmark does not watch"
            + " (StatefulSet, Job, NetworkPolicy): not in P3-trino");
      }
      List<String> keys = objects.stream()
          .filter(o -> "engines-service".equals(o.getMetadata().getLabels().get(MANAGED_BY)))
          .map(o -> o.getKind() + "/" + o.getMetadata().getName().substring(name.length()))
          .sorted((a, b) -> a.equals("ConfigMap/-instance") ? -1 : b.equals("ConfigMap/-instance") ? 1
              : a.compareTo(b))
          .collect(Collectors.toList());
      log("objects of a Trino instance (from the warm-up): %s", keys);
      return keys;
    }
    return null;
  }

  private void p3(int n, List<String> suffixKeys, long pid, long kubePid) throws Exception {
    log("P3-trino: %d sequential Trino instances, each in a fresh namespace", n);
    List<String> nss = prepareNamespaces("be3-" + run, n);
    List<String> keys = suffixKeys.stream().map(k -> k.replace("/", "/" + TRINO)).collect(Collectors.toList());
    String rootKey = "ConfigMap/" + TRINO + "-instance";
    Stats post = new Stats("P3-trino: create API, POST → 201 (idle, sequential)");
    Stats oidc = new Stats("P3-trino: POST → OIDC stand-in done (Secret + event acked)");
    Stats root = new Stats("P3-trino: POST → root ConfigMap seen");
    Stats objects = new Stats(Stats.f("**P3-trino: POST → all %d objects seen (informer)**", keys.size()));
    Stats afterOidc = new Stats("P3-trino: OIDC event acked → all objects seen");
    Stats ready = new Stats("P3-trino: POST → phase Ready (GET every 20 ms)");
    Map<String, Integer> lastKind = new TreeMap<>();
    Map<String, Stats> perObject = new LinkedHashMap<>();
    keys.forEach(k -> perObject.put(k, new Stats(k)));
    int failed = 0;
    int timeouts = 0;
    long serviceTicks = 0;
    long kubeTicks = 0;
    int cpuSamples = 0;
    StringBuilder csv = new StringBuilder("namespace,post_ms,oidc_ms,root_ms,all_ms,last,ready_ms\n");
    Map<String, Double> threads0 = ThreadCpu.snapshot(pid);
    Map<String, Double> kubeThreads0 = ThreadCpu.snapshot(kubePid);
    long window0 = System.nanoTime();
    for (String ns : nss) {
      try (ObjectWatch watch = new ObjectWatch(kube, ns)) {
        long serviceBefore = Proc.cpuTicks(pid);
        long kubeBefore = Proc.cpuTicks(kubePid);
        long t0 = System.nanoTime();
        HttpResponse<String> r = api.create(ns, "trino", request(ns, "trino", TRINO));
        long t1 = System.nanoTime();
        if (r.statusCode() != 201) {
          failed++;
          notes.add("P3-trino " + ns + ": POST answered " + r.statusCode() + " " + r.body());
          continue;
        }
        created.add(new String[] {ns, "trino", TRINO});
        post.add(t1 - t0);
        oidcClientReady(ns, "trino", TRINO);
        long t2 = System.nanoTime();
        oidc.add(t2 - t0);
        long all = watch.awaitAll(keys, t0 + TimeUnit.SECONDS.toNanos(30));
        String last = "";
        if (all < 0) {
          timeouts++;
          notes.add("P3-trino " + ns + ": not all objects seen within 30 s, missing "
              + keys.stream().filter(k -> watch.seen(k) == null).collect(Collectors.toList()));
        } else {
          serviceTicks += Proc.cpuTicks(pid) - serviceBefore;
          kubeTicks += Proc.cpuTicks(kubePid) - kubeBefore;
          cpuSamples++;
          objects.add(all - t0);
          afterOidc.add(Math.max(0, all - t2));
          root.add(watch.seen(rootKey) - t0);
          for (String k : keys) {
            perObject.get(k).add(watch.seen(k) - t0);
            if (watch.seen(k) == all) {
              last = k;
            }
          }
          lastKind.merge(last, 1, Integer::sum);
        }
        long readyAt = -1;
        long deadline = t0 + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
          long tick = System.nanoTime();
          if ("Ready".equals(api.phase(ns, "trino", TRINO))) {
            readyAt = System.nanoTime();
            ready.add(readyAt - t0);
            break;
          }
          Loops.sleepUntil(tick + TimeUnit.MILLISECONDS.toNanos(20));
        }
        Long rootSeen = watch.seen(rootKey);
        csv.append(Stats.f("%s,%.2f,%.2f,%.2f,%.2f,%s,%.2f%n", ns, (t1 - t0) / 1e6, (t2 - t0) / 1e6,
            rootSeen == null ? -1.0 : (rootSeen - t0) / 1e6, all < 0 ? -1.0 : (all - t0) / 1e6, last,
            readyAt < 0 ? -1.0 : (readyAt - t0) / 1e6));
      }
      Thread.sleep(200); // trailing events settle: every request meets an idle system
    }
    double seconds = (System.nanoTime() - window0) / 1e9;
    Map<String, Double> threads1 = ThreadCpu.snapshot(pid);
    Map<String, Double> kubeThreads1 = ThreadCpu.snapshot(kubePid);
    Files.writeString(work.resolve("p3-trino.csv"), csv.toString());
    rows.add(post.row(Stats.rate(post.count(), seconds, "req") + " (sequential, incl. waits)"));
    rows.add(oidc.row("–"));
    rows.add(root.row("–"));
    rows.add(objects.row(Stats.f("%.0f instances/s one at a time (1 / p50)", 1000 / objects.percentileMs(50))));
    rows.add(afterOidc.row("–"));
    rows.add(ready.row("–"));
    figures.put("P3trino.post_p50_ms", post.percentileMs(50));
    figures.put("P3trino.objects_p50_ms", objects.percentileMs(50));
    figures.put("P3trino.objects_p99_ms", objects.percentileMs(99));
    figures.put("P3trino.ready_p50_ms", ready.percentileMs(50));
    boolean p50ok = objects.percentileMs(50) <= 20;
    boolean p99ok = objects.percentileMs(99) <= 75;
    detail.append("### P3-trino: request → all Kubernetes objects of a Trino instance (idle system)\n\n")
        .append(Stats.f("- target p50 ≤ 20 ms: **%s** (%s ms); target p99 ≤ 75 ms: **%s** (%s ms)%n",
            p50ok ? "met" : "missed", Stats.ms(objects.percentileMs(50)), p99ok ? "met" : "missed",
            Stats.ms(objects.percentileMs(99))))
        .append(Stats.f("- %d instances `%s`, each in a fresh namespace (`be3-%s-NNN`) with its Ready catalog and"
            + " bucket Secret prepared beforehand; the benchmark's informers on that namespace are started (and"
            + " synced) before the POST and stop the clock at the last object%n", n, TRINO, run))
        .append(Stats.f("- the %d objects: %s%n", keys.size(), keys.stream().map(k -> "`" + k + "`")
            .collect(Collectors.joining(", "))))
        .append("- the clock includes the OIDC stand-in (the benchmark writes `sql-oidc` and publishes"
            + " `access.oidc-client-ready` right after the 201): the workloads are gated on it by design\n")
        .append(Stats.f("- last object to appear: %s%n", lastKind.entrySet().stream()
            .map(e -> "`" + e.getKey() + "` " + e.getValue() + "×").collect(Collectors.joining(", "))))
        .append(Stats.f("- CPU from POST to the last object seen, mean per instance: engines-service %.0f ms,"
                + " local Kubernetes API (mock + simulator) %.0f ms (from /proc, 10 ms ticks)%n",
            cpuSamples == 0 ? Double.NaN : serviceTicks * 1000 / Proc.TICKS_PER_SECOND / cpuSamples,
            cpuSamples == 0 ? Double.NaN : kubeTicks * 1000 / Proc.TICKS_PER_SECOND / cpuSamples))
        .append(failed + timeouts > 0 ? Stats.f("- %d POSTs failed, %d instances timed out (30 s)%n", failed,
            timeouts) : "")
        .append("\nPOST → each object first seen (ms):\n\n")
        .append("| object | p50 | p90 | p99 | max |\n|---|---:|---:|---:|---:|\n");
    perObject.values().stream().sorted((a, b) -> Double.compare(a.percentileMs(50), b.percentileMs(50)))
        .forEach(s -> detail.append(Stats.f("| `%s` | %s | %s | %s | %s |%n", s.name(), Stats.ms(s.percentileMs(50)),
            Stats.ms(s.percentileMs(90)), Stats.ms(s.percentileMs(99)), Stats.ms(s.maxMs()))));
    detail.append(Stats.f("%nCPU of the whole P3-trino loop by thread (POST, OIDC stand-in, reconcile, Ready polling"
            + " every 20 ms, 200 ms pauses; from jstack), per instance:%n%n"))
        .append(ThreadCpu.table("engines-service", threads0, threads1, n, "per instance")).append('\n')
        .append(ThreadCpu.table("local Kubernetes API", kubeThreads0, kubeThreads1, n, "per instance")).append('\n');
    log("P3-trino: p50 %s ms, p99 %s ms", Stats.ms(objects.percentileMs(50)), Stats.ms(objects.percentileMs(99)));
  }

  // ---------------------------------------------------------------- P5-mixed

  /** One burst: who was asked for what, when it was accepted and when a list first showed it Ready. */
  private static final class Burst {
    String[] names;
    String[] kinds;
    String[] ns;
    long[] postStart;
    long[] readyAt;
    boolean[] accepted;
    long t0;
    int ready;
    int acceptedCount;
    double seconds;
    double postSeconds;
    final Stats post = new Stats("P5-mixed: create API, POST → 201 + OIDC stand-in (burst)");
    final Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
    final List<String> timeline = new ArrayList<>();
    int lists;
  }

  /**
   * {@code n} instances, kind {@code i % 4}, namespace {@code (i / 4) % namespaces}, POSTed by {@code threads}
   * threads; every 500 ms one list per namespace and kind until all are Ready (bounded to 10 min).
   */
  private Burst burst(List<String> nss, int n, int threads, String prefix, int maxSeconds) throws Exception {
    Burst b = new Burst();
    b.names = new String[n];
    b.kinds = new String[n];
    b.ns = new String[n];
    b.postStart = new long[n];
    b.readyAt = new long[n];
    b.accepted = new boolean[n];
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < n; i++) {
      b.kinds[i] = KINDS.get(i % KINDS.size());
      b.ns[i] = nss.get((i / KINDS.size()) % nss.size());
      b.names[i] = Stats.f("%s%s-%s-%03d", prefix, b.kinds[i].substring(0, 1), run, i);
      index.put(b.ns[i] + "/" + b.kinds[i] + "/" + b.names[i], i);
    }
    ExecutorService side = Executors.newSingleThreadExecutor();
    b.t0 = System.nanoTime();
    Future<Double> posting = side.submit(() -> Loops.parallel(n, threads, i -> {
      b.postStart[i] = System.nanoTime();
      HttpResponse<String> r = api.create(b.ns[i], b.kinds[i], request(b.ns[i], b.kinds[i], b.names[i]));
      b.statuses.merge(r.statusCode(), 1, Integer::sum);
      if (r.statusCode() != 201) {
        notes.add("burst " + b.kinds[i] + " " + b.names[i] + ": POST answered " + r.statusCode() + " "
            + r.body().substring(0, Math.min(300, r.body().length())));
        return;
      }
      created.add(new String[] {b.ns[i], b.kinds[i], b.names[i]});
      if (needsOidc(b.kinds[i])) {
        oidcClientReady(b.ns[i], b.kinds[i], b.names[i]);
      }
      b.post.add(System.nanoTime() - b.postStart[i]);
      b.accepted[i] = true;
    }));
    long deadline = b.t0 + TimeUnit.SECONDS.toNanos(maxSeconds);
    int round = 0;
    long lastReady = 0;
    Map<String, Boolean> done = new HashMap<>();
    while (System.nanoTime() < deadline) {
      Loops.sleepUntil(b.t0 + TimeUnit.MILLISECONDS.toNanos(500L * ++round));
      Map<String, Integer> phases = new TreeMap<>();
      for (String ns : nss) {
        for (String kind : KINDS) {
          if (done.getOrDefault(ns + "/" + kind, false) && posting.isDone()) {
            continue;
          }
          JsonNode items = api.list(ns, kind);
          b.lists++;
          boolean allReady = true;
          for (JsonNode item : items) {
            Integer i = index.get(ns + "/" + kind + "/" + item.path("name").asText());
            if (i == null) {
              continue;
            }
            String phase = item.path("status").path("phase").asText();
            phases.merge(phase, 1, Integer::sum);
            if ("Ready".equals(phase)) {
              if (b.readyAt[i] == 0) {
                b.readyAt[i] = System.nanoTime();
                lastReady = b.readyAt[i];
              }
            } else {
              allReady = false;
            }
          }
          done.put(ns + "/" + kind, allReady);
        }
      }
      int readyCount = 0;
      int acceptedCount = 0;
      for (int i = 0; i < n; i++) {
        readyCount += b.readyAt[i] > 0 ? 1 : 0;
        acceptedCount += b.accepted[i] ? 1 : 0;
      }
      b.ready = readyCount;
      b.acceptedCount = acceptedCount;
      b.timeline.add(Stats.f("| %.1f | %d accepted, %d Ready; last lists: %s |", (System.nanoTime() - b.t0) / 1e9,
          acceptedCount, readyCount, phases));
      if (posting.isDone() && readyCount == acceptedCount) {
        break;
      }
    }
    b.postSeconds = posting.get(1, TimeUnit.MINUTES);
    side.shutdown();
    b.seconds = ((b.ready == b.acceptedCount && lastReady > 0 ? lastReady : System.nanoTime()) - b.t0) / 1e9;
    return b;
  }

  private void p5(int n, int nsCount, int threads, long pid, long kubePid) throws Exception {
    log("P5-mixed: %d instances of the four kinds over %d namespaces, %d POST threads", n, nsCount, threads);
    List<String> nss = prepareNamespaces("be5-" + run, nsCount);
    long heapBefore = Proc.heapUsedAfterGcKb(pid);
    long rssBefore = Proc.rssKb(pid);
    Map<String, Double> threads0 = ThreadCpu.snapshot(pid);
    Map<String, Double> kubeThreads0 = ThreadCpu.snapshot(kubePid);
    long[] cpuBefore = cpu(pid, kubePid);
    long[] machineBefore = Proc.machineTicks();
    Burst b = burst(nss, n, threads, "", opt("p5-max-seconds", 600));
    notReady(b, "P5-mixed");
    long[] cpuAfter = cpu(pid, kubePid);
    long[] machineAfter = Proc.machineTicks();
    Map<String, Double> threads1 = ThreadCpu.snapshot(pid);
    Map<String, Double> kubeThreads1 = ThreadCpu.snapshot(kubePid);
    long rssAfter = Proc.rssKb(pid);
    long heapAfter = Proc.heapUsedAfterGcKb(pid);
    Files.writeString(work.resolve("class-histogram-after-p5-mixed.txt"),
        Proc.run(List.of("jcmd", Long.toString(pid), "GC.class_histogram")));

    Stats converge = new Stats("**P5-mixed: POST → phase Ready seen (lists every 500 ms), all kinds**");
    Map<String, Stats> perKind = new LinkedHashMap<>();
    KINDS.forEach(k -> perKind.put(k, new Stats("P5-mixed: POST → Ready, " + k)));
    StringBuilder csv = new StringBuilder("namespace,kind,name,post_start_ms,ready_ms\n");
    for (int i = 0; i < n; i++) {
      if (b.accepted[i] && b.readyAt[i] > 0) {
        converge.add(b.readyAt[i] - b.postStart[i]);
        perKind.get(b.kinds[i]).add(b.readyAt[i] - b.postStart[i]);
      }
      csv.append(Stats.f("%s,%s,%s,%.1f,%.1f%n", b.ns[i], b.kinds[i], b.names[i], (b.postStart[i] - b.t0) / 1e6,
          b.readyAt[i] > 0 ? (b.readyAt[i] - b.t0) / 1e6 : -1.0));
    }
    Files.writeString(work.resolve("p5-mixed.csv"), csv.toString());
    boolean allReady = b.ready == b.acceptedCount && b.acceptedCount == n;
    double perSecond = b.ready / b.seconds;
    figures.put("P5mixed.total_s", b.seconds);
    figures.put("P5mixed.ready_per_s", perSecond);
    figures.put("P5mixed.heap_per_instance_kb", (heapAfter - heapBefore) / (double) n);
    figures.put("P5mixed.service_cpu_s", (cpuAfter[0] - cpuBefore[0]) / Proc.TICKS_PER_SECOND);
    rows.add(b.post.row(Stats.f("%.0f creates/s (%d threads)", b.post.count() / b.postSeconds, threads)));
    rows.add(converge.row(Stats.f("**%.1f instances/s**", perSecond)));
    perKind.values().forEach(s -> rows.add(s.row("–")));

    double window = (machineAfter[1] - machineBefore[1]) / Proc.TICKS_PER_SECOND;
    String[] who = {"engines-service", "local Kubernetes API (mock + simulator)", "PostgreSQL (all backends)",
        "Kafka", "benchmark client"};
    StringBuilder cpu = new StringBuilder("| process | CPU s | share of the 2-core window |\n|---|---:|---:|\n");
    for (int k = 0; k < who.length; k++) {
      double s = (cpuAfter[k] - cpuBefore[k]) / Proc.TICKS_PER_SECOND;
      cpu.append(Stats.f("| %s | %.1f | %.0f %% |%n", who[k], s, 100 * s / Math.max(0.01, window)));
    }
    double busy = (machineAfter[0] - machineBefore[0]) / Proc.TICKS_PER_SECOND;
    cpu.append(Stats.f("| whole machine (incl. other engineers' builds) | %.1f | %.0f %% |%n", busy,
        100 * busy / Math.max(0.01, window)));
    Map<String, Integer> objectsByKind = countManaged(nss);
    int objectsTotal = objectsByKind.values().stream().mapToInt(Integer::intValue).sum();
    detail.append(Stats.f("### P5-mixed: burst of %d instances (%d of each kind) over %d namespaces%n%n", n,
            n / KINDS.size(), nss.size()))
        .append(Stats.f("- all %d Ready: **%s** after **%.1f s** = **%.1f instances/s** (POSTs done after %.1f s;"
                + " statuses %s); the bar's P5 rate (1,000 in 20 s = 50/s) %s%n", n, allReady ? "yes" : "no",
            b.seconds, perSecond, b.postSeconds, b.statuses, perSecond >= 50 ? "met" : "missed"))
        .append(Stats.f("- %d of each kind in each namespace (`be5-%s-0..%d`), names `<t|s|m|n>-%s-NNN`, kinds"
            + " interleaved in POST order; trino and nifi get the OIDC stand-in from the POST thread right after"
            + " their 201%n", n / KINDS.size() / nss.size(), run, nss.size() - 1, run))
        .append(Stats.f("- objects labelled managed-by=engines-service in the burst's namespaces once all were"
            + " Ready: %d (%.1f per instance): %s%n", objectsTotal, objectsTotal / (double) n, objectsByKind))
        .append(Stats.f("- engines-service RSS %.0f → %.0f MiB (%+.1f KiB per instance); heap used after a full GC"
                + " %.1f → %.1f MiB (**%+.1f KiB per instance**; P6: ≤ 15 KB)%n", rssBefore / 1024.0,
            rssAfter / 1024.0, (rssAfter - rssBefore) / (double) n, heapBefore / 1024.0, heapAfter / 1024.0,
            (heapAfter - heapBefore) / (double) n))
        .append(Stats.f("- observer: %d list calls during the burst (one per namespace and kind every 500 ms)%n",
            b.lists))
        .append("\nCPU used from the first POST to the last Ready:\n\n").append(cpu)
        .append("\nThe same window by thread (from jstack), per instance:\n\n")
        .append(ThreadCpu.table("engines-service", threads0, threads1, n, "per instance")).append('\n')
        .append(ThreadCpu.table("local Kubernetes API", kubeThreads0, kubeThreads1, n, "per instance"))
        .append("\nOver time (one poll in ").append(Math.max(1, (int) Math.ceil(b.timeline.size() / 20.0)))
        .append(" shown):\n\n| s | instances |\n|---:|---|\n");
    int every = Math.max(1, (int) Math.ceil(b.timeline.size() / 20.0));
    for (int k = 0; k < b.timeline.size(); k++) {
      if (k % every == every - 1 || k == b.timeline.size() - 1) {
        detail.append(b.timeline.get(k)).append('\n');
      }
    }
    detail.append('\n');
    log("P5-mixed: %d/%d Ready after %.1f s (%.1f/s)", b.ready, b.acceptedCount, b.seconds, perSecond);
  }

  /** A note for each accepted instance a burst did not see Ready: its phase and the conditions not True. */
  private void notReady(Burst b, String what) {
    List<String> stuck = new ArrayList<>();
    for (int i = 0; i < b.names.length; i++) {
      if (b.accepted[i] && b.readyAt[i] == 0) {
        HttpResponse<String> r = api.get(api.instances(b.ns[i], b.kinds[i]) + "/" + b.names[i]);
        String state = String.valueOf(r.statusCode());
        if (r.statusCode() == 200) {
          JsonNode st = api.read(r.body()).path("status");
          StringBuilder c = new StringBuilder(st.path("phase").asText());
          for (JsonNode cond : st.path("conditions")) {
            if (!"True".equals(cond.path("status").asText())) {
              c.append(' ').append(cond.path("type").asText()).append('=').append(cond.path("reason").asText());
            }
          }
          state = c.toString();
        }
        stuck.add(b.ns[i] + "/" + b.kinds[i] + "/" + b.names[i] + " (" + state + ")");
      }
    }
    if (!stuck.isEmpty()) {
      notes.add(Stats.f("%s: %d accepted instances not seen Ready within its bound: %s", what, stuck.size(),
          String.join(", ", stuck.subList(0, Math.min(20, stuck.size())))));
      log("%s: not Ready: %s", what, stuck);
    }
  }

  private Map<String, Integer> countManaged(List<String> nss) {
    Map<String, Integer> count = new TreeMap<>();
    for (String ns : nss) {
      List<HasMetadata> objects = objectsIn(ns);
      for (HasMetadata o : objects) {
        if ("engines-service".equals(o.getMetadata().getLabels() == null ? null
            : o.getMetadata().getLabels().get(MANAGED_BY))) {
          count.merge(o.getKind(), 1, Integer::sum);
        }
      }
    }
    return count;
  }

  private List<HasMetadata> objectsIn(String ns) {
    List<HasMetadata> objects = new ArrayList<>();
    objects.addAll(kube.configMaps().inNamespace(ns).list().getItems());
    objects.addAll(kube.secrets().inNamespace(ns).list().getItems());
    objects.addAll(kube.apps().deployments().inNamespace(ns).list().getItems());
    objects.addAll(kube.apps().statefulSets().inNamespace(ns).list().getItems());
    objects.addAll(kube.services().inNamespace(ns).list().getItems());
    objects.addAll(kube.network().v1().ingresses().inNamespace(ns).list().getItems());
    objects.addAll(kube.batch().v1().jobs().inNamespace(ns).list().getItems());
    objects.addAll(kube.persistentVolumeClaims().inNamespace(ns).list().getItems());
    objects.addAll(kube.genericKubernetesResources(ObjectWatch.CNPG_CLUSTER).inNamespace(ns).list().getItems());
    return objects;
  }

  /** CPU ticks: engines-service, kube, postgres, kafka, this JVM. */
  private long[] cpu(long pid, long kubePid) {
    long kafka = Proc.pidFromFile(home.resolve("run/kafka.pid")).map(Proc::cpuTicks).orElse(0L);
    return new long[] {Proc.cpuTicks(pid), Proc.cpuTicks(kubePid), Proc.cpuTicksOfAll("postgres"), kafka,
        Proc.cpuTicks(ProcessHandle.current().pid())};
  }

  // ---------------------------------------------------------------- cleanup

  /** DELETE of each instance (8 threads), then lists until all are gone (bounded: 5 min, 90 s without progress). */
  private void deleteInstances(List<String[]> all, String what) throws Exception {
    log("%s: deleting %d instances", what, all.size());
    Loops.parallel(all.size(), 8, i -> api.delete(api.instances(all.get(i)[0], all.get(i)[1]) + "/" + all.get(i)[2]));
    long t0 = System.nanoTime();
    long deadline = t0 + TimeUnit.MINUTES.toNanos(5);
    int lastLeft = -1;
    long lastProgress = System.nanoTime();
    List<String[]> left = new ArrayList<>(all);
    while (!left.isEmpty() && System.nanoTime() < deadline
        && System.nanoTime() - lastProgress < TimeUnit.SECONDS.toNanos(90)) {
      Thread.sleep(500);
      left.removeIf(k -> api.get(api.instances(k[0], k[1]) + "/" + k[2]).statusCode() == 404);
      if (left.size() != lastLeft) {
        lastLeft = left.size();
        lastProgress = System.nanoTime();
      }
    }
    for (String[] k : all) {
      if (needsOidc(k[1])) {
        events.send(Events.ACCESS, "/lakehouse/access-service", "lakehouse.access.oidc-client-removed.v1",
            k[0] + "/" + k[1] + "/" + k[2], api.json().createObjectNode().put("namespace", k[0]).put("kind", k[1])
                .put("name", k[2]).put("clientId", k[0] + "-" + k[2] + "-" + k[1]).put("secretName", k[2] + "-oidc"));
      }
    }
    if (!left.isEmpty()) {
      notes.add(Stats.f("%s: %d instances still there %.0f s after their DELETE: %s", what, left.size(),
          (System.nanoTime() - t0) / 1e9, left.stream().limit(10).map(k -> k[0] + "/" + k[1] + "/" + k[2])
              .collect(Collectors.joining(", "))));
    }
    log("%s: %d of %d gone after %.1f s", what, all.size() - left.size(), all.size(), (System.nanoTime() - t0) / 1e9);
  }

  /** The run's instances, then whatever is left in its namespaces, the catalogs (instance.deleted), the namespaces. */
  private void cleanup() {
    try {
      deleteInstances(new ArrayList<>(created), "cleanup");
    } catch (Exception e) {
      notes.add("cleanup of the instances failed: " + e);
    }
    Map<String, Integer> orphans = new TreeMap<>();
    for (String ns : new ArrayList<>(namespaces)) {
      try {
        for (HasMetadata o : objectsIn(ns)) {
          String name = o.getMetadata().getName();
          boolean ours = name.equals(BUCKET_SECRET) || name.endsWith("-oidc");
          if (!ours && !"kube-root-ca.crt".equals(name)) {
            orphans.merge(o.getKind(), 1, Integer::sum);
          }
          kube.resource(o).delete();
        }
        events.send(Events.INSTANCES, "/lakehouse/catalog-service", "lakehouse.instance.deleted.v1",
            ns + "/iceberg-catalog/" + CATALOG, catalogData(ns, "Deleting"));
        kube.namespaces().withName(ns).delete();
      } catch (RuntimeException e) {
        notes.add("cleanup of namespace " + ns + " failed: " + e);
      }
    }
    detail.append(Stats.f("### Cleanup%n%n- every instance of the run deleted through the API; objects of"
            + " engines-service left in the %d namespaces afterwards: %s; then the catalogs (`instance.deleted`),"
            + " the stand-in Secrets and the namespaces removed%n%n", namespaces.size(),
        orphans.isEmpty() ? "none" : orphans.toString()));
  }

  // ---------------------------------------------------------------- log

  private long logSize() {
    try {
      return Files.size(home.resolve("logs/engines.log"));
    } catch (IOException e) {
      return 0;
    }
  }

  private String logSummary(long offset) {
    Path file = home.resolve("logs/engines.log");
    String text;
    try (var in = Files.newInputStream(file)) {
      in.skipNBytes(Math.min(offset, Files.size(file)));
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "engines.log not readable: " + e + "\n";
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
      String shape = line.replaceFirst("^\\S+ \\S+ ", "").replaceAll("be[35w]-[a-z0-9]{4}(-\\d+)?", "<ns>")
          .replaceAll("[tsmn]?[tsmn]-[a-z0-9]{4}-\\d+", "<name>").replaceAll("\\d+", "N");
      kinds.merge(shape.length() > 200 ? shape.substring(0, 200) + "…" : shape, 1, Integer::sum);
    }
    StringBuilder s = new StringBuilder(Stats.f("engines.log during the run: %d WARN, %d ERROR lines%n", warn, error));
    kinds.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(6)
        .forEach(k -> s.append(Stats.f("- %d× `%s`%n", k.getValue(), k.getKey().replace('`', '\''))));
    return s.toString();
  }
}
