package io.lakehouse.bench;

import static io.lakehouse.bench.EnginesBench.INSTANCE;
import static io.lakehouse.bench.EnginesBench.MANAGED_BY;
import static io.lakehouse.bench.EnginesBench.TRINO;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** P3-trino: request → all Kubernetes objects of a Trino instance, one at a time, each in a fresh namespace. */
final class EnginesP3 {

  private final Path work;
  private final KubernetesClient kube;
  private final Api api;
  private final Events events;
  private final String run;
  private final List<String> rows;
  private final List<String> notes;
  private final StringBuilder detail;
  private final Map<String, Double> figures;
  private final List<String[]> created;
  private final EngineFixtures fixtures;

  EnginesP3(EnginesRun r) {
    this.work = r.work;
    this.kube = r.kube;
    this.api = r.api;
    this.events = r.events;
    this.run = r.run;
    this.rows = r.rows;
    this.notes = r.notes;
    this.detail = r.detail;
    this.figures = r.figures;
    this.created = r.created;
    this.fixtures = new EngineFixtures(r);
  }

  /**
   * The objects of the first warm-up Trino as {@code Kind/<suffix>} ("Deployment/-worker"): every object labelled
   * with its instance name and managed by engines-service, of the kinds {@link ObjectWatch} follows.
   */
  List<String> discoverTrinoObjects(EnginesBurst.Burst w) {
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

  void p3(int n, List<String> suffixKeys, long pid, long kubePid) throws Exception {
    log("P3-trino: %d sequential Trino instances, each in a fresh namespace", n);
    List<String> nss = fixtures.prepareNamespaces("be3-" + run, n);
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
        HttpResponse<String> r = api.create(ns, "trino", fixtures.request(ns, "trino", TRINO));
        long t1 = System.nanoTime();
        if (r.statusCode() != 201) {
          failed++;
          notes.add("P3-trino " + ns + ": POST answered " + r.statusCode() + " " + r.body());
          continue;
        }
        created.add(new String[] {ns, "trino", TRINO});
        post.add(t1 - t0);
        fixtures.oidcClientReady(ns, "trino", TRINO);
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
        .append("\nPOST → each object first seen (ms):\n\n").append(Stats.objectTable(perObject.values()));
    detail.append(Stats.f("%nCPU of the whole P3-trino loop by thread (POST, OIDC stand-in, reconcile, Ready polling"
            + " every 20 ms, 200 ms pauses; from jstack), per instance:%n%n"))
        .append(ThreadCpu.table("engines-service", threads0, threads1, n, "per instance")).append('\n')
        .append(ThreadCpu.table("local Kubernetes API", kubeThreads0, kubeThreads1, n, "per instance")).append('\n');
    log("P3-trino: p50 %s ms, p99 %s ms", Stats.ms(objects.percentileMs(50)), Stats.ms(objects.percentileMs(99)));
  }

  private static void log(String format, Object... args) {
    BenchCli.log("bench", format, args);
  }
}
