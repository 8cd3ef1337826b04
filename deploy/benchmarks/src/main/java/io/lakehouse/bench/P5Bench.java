package io.lakehouse.bench;

import static io.lakehouse.bench.Loops.parallel;
import static io.lakehouse.bench.Loops.sleepUntil;
import static io.lakehouse.bench.Main.SERVICE_CREATES_PER_CATALOG;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/** P5: a burst of catalogs over several namespaces until all are Ready, with what it costs. */
final class P5Bench {

  private final Map<String, String> opts;
  private final Path home;
  private final Path work;
  private final KubernetesClient kube;
  private final Api api;
  private final String run;
  private final List<String> rows;
  private final Map<String, Double> figures;
  private final StringBuilder detail;
  private final List<String[]> created;

  P5Bench(CatalogRun r) {
    this.opts = r.opts;
    this.home = r.home;
    this.work = r.work;
    this.kube = r.kube;
    this.api = r.api;
    this.run = r.run;
    this.rows = r.rows;
    this.figures = r.figures;
    this.detail = r.detail;
    this.created = r.created;
  }

  void p5(List<String> namespaces, int n, int threads, MockRates.MockRate m, long catalogPid, long kubePid)
      throws Exception {
    log("P5: %d catalogs over %d namespaces, %d POST threads", n, namespaces.size(), threads);
    long heapBefore = Proc.heapUsedAfterGcKb(catalogPid);
    long rssBefore = Proc.rssKb(catalogPid);
    long logOffset = Files.size(home.resolve("logs/catalog.log"));
    Map<String, Double> serviceThreads0 = ThreadCpu.snapshot(catalogPid);
    Map<String, Double> kubeThreads0 = ThreadCpu.snapshot(kubePid);
    long[] cpuBefore = Proc.stackCpuTicks(home, catalogPid, kubePid);
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
        HttpResponse<String> r = api.createCatalog(ns, names[i], Buckets.secret(ns));
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
    long[] cpuAfter = Proc.stackCpuTicks(home, catalogPid, kubePid);
    long[] machineAfter = Proc.machineTicks();
    Map<String, Double> serviceThreads1 = ThreadCpu.snapshot(catalogPid);
    Map<String, Double> kubeThreads1 = ThreadCpu.snapshot(kubePid);
    long rssAfter = Proc.rssKb(catalogPid);
    long heapAfter = Proc.heapUsedAfterGcKb(catalogPid);
    Files.writeString(work.resolve("class-histogram-after-p5.txt"), ClassHistogram.take(catalogPid));
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

    String cpu = Proc.cpuTable("catalog-service", cpuBefore, cpuAfter, machineBefore, machineAfter);

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
    detail.append('\n').append(CatalogLog.summary(home, logOffset, "P5")).append('\n');
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

  private int opt(String name, int fallback) {
    return BenchCli.intOption(opts, name, fallback);
  }

  private static void log(String format, Object... args) {
    BenchCli.log("bench", format, args);
  }
}
