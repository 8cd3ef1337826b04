package io.lakehouse.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * notebooks-service alone on the local stack: P3-hub (request → every object of a JupyterHub, one hub at a time in a
 * fresh namespace, the benchmark's informers stopping the clock) and a burst of hubs, one per namespace (the kind's
 * rule) over many namespaces, until all are Ready. access-service is not in the loop: right after each 201 the
 * benchmark writes the {@code <name>-oidc} Secret and publishes {@code access.oidc-client-ready}, as access-service
 * does once Keycloak has the client (the hub's workloads wait for it by design). Hubs have no lakehouse references.
 *
 * <pre>
 * java -cp 'target/benchmarks-0.1.0-SNAPSHOT.jar:target/lib/*' io.lakehouse.bench.NotebooksBench --home .local \
 *   --out results.md [--api http://127.0.0.1:8083] [--kube ...] [--kafka 127.0.0.1:59092]
 *   [--warm-up 5] [--p3 30] [--burst 100] [--burst-threads 8]
 * </pre>
 */
public final class NotebooksBench {

  static final String KIND = "jupyterhub";
  static final String HUB = "hub";
  static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  static final String INSTANCE = "app.kubernetes.io/instance";

  private final Map<String, String> opts;
  private final KubernetesClient kube;
  private final Api api;
  private final Events events;
  private final String run = BenchCli.runId();
  private final List<String> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final StringBuilder detail = new StringBuilder();
  private final List<String> namespaces = Collections.synchronizedList(new ArrayList<>());

  private NotebooksBench(Map<String, String> opts) {
    this.opts = opts;
    Path home = Path.of(opts.getOrDefault("home", ".local")).toAbsolutePath();
    this.kube = BenchCli.kube(opts);
    this.api = new Api(BenchCli.api(opts, "notebooks"), BenchCli.token(opts, home));
    this.events = new Events(opts.getOrDefault("kafka", "127.0.0.1:59092"));
  }

  public static void main(String[] argv) throws Exception {
    NotebooksBench bench = new NotebooksBench(BenchCli.options(argv));
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
    BenchCli.log("notebooks", format, args);
  }

  private int runAll() throws Exception {
    String load = Proc.loadAverage();
    if (!api.healthy()) {
      log("notebooks-service is not ready on /q/health/ready");
      return 1;
    }
    int exit = 0;
    try {
      // Warm-up (not measured): a few hubs through their whole life; the first one's objects are what P3 waits for.
      List<String> keys = null;
      for (int i = 0; i < opt("warm-up", 5); i++) {
        String ns = namespace("bnw-" + run + "-" + i);
        if (create(ns) && awaitReady(ns, 60) > 0 && keys == null) {
          keys = objectsOf(ns);
        }
      }
      if (keys == null || keys.isEmpty()) {
        throw new IllegalStateException("no warm-up hub became Ready: nothing to measure against");
      }
      log("objects of a hub (from the warm-up): %s", keys);
      deleteAll();
      if (opt("p3", 30) > 0) {
        p3(opt("p3", 30), keys);
      }
      if (opt("burst", 100) > 0) {
        burst(opt("burst", 100), opt("burst-threads", 8));
      }
    } catch (RuntimeException e) {
      log("benchmark failed: %s", e);
      notes.add("the run stopped early: " + e);
      exit = 1;
    } finally {
      deleteAll();
    }
    StringBuilder md = new StringBuilder()
        .append(Stats.f("## Latest notebooks run: %s UTC%n%n", java.time.LocalDateTime.now(java.time.ZoneOffset.UTC)
            .withNano(0).withSecond(0).toString().replace('T', ' ')))
        .append(Stats.f("Run `%s`, %s UTC; load average at start %s (2 cores shared with other work); commit %s.%n%n",
            run, java.time.LocalDateTime.now(java.time.ZoneOffset.UTC).withNano(0), load,
            opts.getOrDefault("commit", "?")))
        .append(Stats.header()).append('\n');
    rows.forEach(r -> md.append(r).append('\n'));
    md.append('\n').append(detail);
    notes.forEach(n -> md.append("- ").append(n).append('\n'));
    Files.writeString(Path.of(opts.getOrDefault("out", "results.md")), md.toString(), StandardCharsets.UTF_8);
    System.out.println(md);
    return exit;
  }

  // ---------------------------------------------------------------- P3-hub

  private void p3(int n, List<String> keys) throws Exception {
    log("P3-hub: %d hubs one after the other, each in a fresh namespace", n);
    Stats post = new Stats("P3-hub: create API, POST → 201 (idle, sequential)");
    Stats objects = new Stats(Stats.f("**P3-hub: POST → all %d objects seen (informer)**", keys.size()));
    Stats ready = new Stats("P3-hub: POST → phase Ready (GET every 20 ms)");
    Map<String, Integer> last = new TreeMap<>();
    Map<String, Stats> perObject = new LinkedHashMap<>();
    keys.forEach(k -> perObject.put(k, new Stats(k)));
    for (int i = 0; i < n; i++) {
      String ns = namespace(Stats.f("bn3-%s-%03d", run, i));
      try (ObjectWatch watch = ObjectWatch.forHub(kube, ns)) {
        long t0 = System.nanoTime();
        HttpResponse<String> r = api.create(ns, KIND, hub());
        long t1 = System.nanoTime();
        if (r.statusCode() != 201) {
          notes.add("P3-hub " + ns + ": POST answered " + r.statusCode() + " " + r.body());
          continue;
        }
        post.add(t1 - t0);
        oidcClientReady(ns);
        long all = watch.awaitAll(keys, t0 + TimeUnit.SECONDS.toNanos(30));
        if (all < 0) {
          notes.add("P3-hub " + ns + ": not all objects seen within 30 s, missing "
              + keys.stream().filter(k -> watch.seen(k) == null).toList());
        } else {
          objects.add(all - t0);
          keys.forEach(k -> perObject.get(k).add(watch.seen(k) - t0));
          keys.stream().filter(k -> watch.seen(k) == all).findFirst().ifPresent(k -> last.merge(k, 1, Integer::sum));
        }
        long readyAt = awaitReady(ns, 60);
        if (readyAt > 0) {
          ready.add(readyAt - t0);
        }
      }
      Thread.sleep(200); // trailing events settle: every request meets an idle system
    }
    rows.add(post.row("–"));
    rows.add(objects.row(Stats.f("%.0f hubs/s one at a time (1 / p50)", 1000 / objects.percentileMs(50))));
    rows.add(ready.row("–"));
    detail.append(Stats.f("- P3-hub targets (p50 ≤ 20 ms, p99 ≤ 75 ms): p50 **%s**, p99 **%s**%n",
            objects.percentileMs(50) <= 20 ? "met" : "missed", objects.percentileMs(99) <= 75 ? "met" : "missed"))
        .append(Stats.f("- the %d objects (from a warm-up hub: labelled with the instance, managed by"
            + " notebooks-service): %s%n", keys.size(), keys.stream().map(k -> "`" + k + "`")
            .collect(Collectors.joining(", "))))
        .append(Stats.f("- last object to appear: %s%n", last.entrySet().stream()
            .map(e -> "`" + e.getKey() + "` " + e.getValue() + "×").collect(Collectors.joining(", "))))
        .append("\nPOST → each object first seen (ms):\n\n").append(Stats.objectTable(perObject.values()));
    deleteAll();
  }

  // ---------------------------------------------------------------- burst

  private void burst(int n, int threads) throws Exception {
    log("burst: %d hubs over %d namespaces, %d threads", n, n, threads);
    List<String> nss = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      nss.add(namespace(Stats.f("bn5-%s-%03d", run, i)));
    }
    Stats post = new Stats("burst: POST → 201 + OIDC stand-in (" + threads + " threads)");
    long[] postAt = new long[n];
    Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicInteger next = new AtomicInteger();
    long t0 = System.nanoTime();
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      done.add(pool.submit(() -> {
        for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
          postAt[i] = System.nanoTime();
          HttpResponse<String> r = api.create(nss.get(i), KIND, hub());
          statuses.merge(r.statusCode(), 1, Integer::sum);
          if (r.statusCode() == 201) {
            oidcClientReady(nss.get(i));
          }
          post.add(System.nanoTime() - postAt[i]);
        }
        return null;
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    double postSeconds = (System.nanoTime() - t0) / 1e9;
    // Until all are Ready (bounded to 10 min): a GET of each hub not yet Ready every 500 ms.
    Stats ready = new Stats(Stats.f("**burst: POST → phase Ready seen (GET every 500 ms), %d hubs in %d namespaces**",
        n, n));
    boolean[] isReady = new boolean[n];
    int readyCount = 0;
    long deadline = t0 + TimeUnit.MINUTES.toNanos(10);
    while (readyCount < n && System.nanoTime() < deadline) {
      long tick = System.nanoTime();
      for (int i = 0; i < n; i++) {
        if (!isReady[i] && "Ready".equals(api.phase(nss.get(i), KIND, HUB))) {
          isReady[i] = true;
          readyCount++;
          ready.add(System.nanoTime() - postAt[i]);
        }
      }
      Loops.sleepUntil(tick + TimeUnit.MILLISECONDS.toNanos(500));
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    rows.add(post.row(Stats.rate(n, postSeconds, "creates")));
    rows.add(ready.row(Stats.f("**%.1f hubs/s** (%d of %d Ready after %.1f s)", readyCount / seconds, readyCount, n,
        seconds)));
    detail.append(Stats.f("- burst: %d hubs, one in each of %d fresh namespaces (`bn5-%s-NNN`), POSTed by %d"
        + " threads (statuses %s, POSTs done after %.1f s); all Ready: **%s** after %.1f s%n", n, n, run, threads,
        statuses, postSeconds, readyCount == n ? "yes" : "no", seconds));
  }

  // ---------------------------------------------------------------- helpers

  private String namespace(String ns) {
    namespaces.add(ns);
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns)
        .addToLabels(Main.BENCH_LABEL, "true").endMetadata().build()).createOr(NonDeletingOperation::update);
    return ns;
  }

  private ObjectNode hub() {
    ObjectNode body = api.json().createObjectNode().put("name", HUB);
    body.putObject("spec");
    return body;
  }

  private boolean create(String ns) {
    HttpResponse<String> r = api.create(ns, KIND, hub());
    if (r.statusCode() != 201) {
      notes.add("warm-up " + ns + ": POST answered " + r.statusCode() + " " + r.body());
      return false;
    }
    oidcClientReady(ns);
    return true;
  }

  /** The nanoTime the hub was first seen Ready (GET every 20 ms), or -1 at the deadline. */
  private long awaitReady(String ns, int seconds) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      long tick = System.nanoTime();
      if ("Ready".equals(api.phase(ns, KIND, HUB))) {
        return System.nanoTime();
      }
      Loops.sleepUntil(tick + TimeUnit.MILLISECONDS.toNanos(20));
    }
    return -1;
  }

  /** {@code Kind/name} of every object of the hub in {@code ns} managed by notebooks-service. */
  private List<String> objectsOf(String ns) {
    List<HasMetadata> all = new ArrayList<>();
    all.addAll(kube.configMaps().inNamespace(ns).withLabel(INSTANCE, HUB).list().getItems());
    all.addAll(kube.secrets().inNamespace(ns).withLabel(INSTANCE, HUB).list().getItems());
    all.addAll(kube.apps().deployments().inNamespace(ns).withLabel(INSTANCE, HUB).list().getItems());
    all.addAll(kube.services().inNamespace(ns).withLabel(INSTANCE, HUB).list().getItems());
    all.addAll(kube.network().v1().ingresses().inNamespace(ns).withLabel(INSTANCE, HUB).list().getItems());
    all.addAll(kube.persistentVolumeClaims().inNamespace(ns).withLabel(INSTANCE, HUB).list().getItems());
    all.addAll(kube.serviceAccounts().inNamespace(ns).withLabel(INSTANCE, HUB).list().getItems());
    all.addAll(kube.rbac().roles().inNamespace(ns).withLabel(INSTANCE, HUB).list().getItems());
    all.addAll(kube.rbac().roleBindings().inNamespace(ns).withLabel(INSTANCE, HUB).list().getItems());
    all.addAll(kube.network().v1().networkPolicies().inNamespace(ns).withLabel(INSTANCE, HUB).list().getItems());
    return all.stream().filter(o -> "notebooks-service".equals(o.getMetadata().getLabels().get(MANAGED_BY)))
        .map(o -> o.getKind() + "/" + o.getMetadata().getName()).sorted().toList();
  }

  private void oidcClientReady(String ns) {
    OidcStandIn.ready(kube, events, api.json(), ns, KIND, HUB);
  }

  /** Deletes every hub of the run's namespaces through the API and waits (bounded, 5 min) until they are gone. */
  private void deleteAll() throws InterruptedException {
    List<String> current = new ArrayList<>(namespaces);
    for (String ns : current) {
      api.delete(api.instances(ns, KIND) + "/" + HUB);
    }
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    List<String> left = current;
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      left = left.stream().filter(ns -> api.get(api.instances(ns, KIND) + "/" + HUB).statusCode() != 404).toList();
      Thread.sleep(500);
    }
    if (!left.isEmpty()) {
      notes.add("cleanup: " + left.size() + " hubs still there after 5 min: " + left);
    }
    for (String ns : current) {
      kube.secrets().inNamespace(ns).withName(HUB + "-oidc").delete();
      kube.namespaces().withName(ns).delete();
    }
    namespaces.removeAll(current);
  }
}
