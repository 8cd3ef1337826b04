package io.lakehouse.bench;

import static io.lakehouse.bench.EnginesBench.KINDS;
import static io.lakehouse.bench.EnginesBench.MANAGED_BY;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

/** P5-mixed: bursts of instances of the four kinds until all are Ready (also the warm-up), with what they cost. */
final class EnginesBurst {

  private final Map<String, String> opts;
  private final Path home;
  private final Path work;
  private final KubernetesClient kube;
  private final Api api;
  private final String run;
  private final List<String> rows;
  private final List<String> notes;
  private final StringBuilder detail;
  private final Map<String, Double> figures;
  private final List<String[]> created;
  private final List<String> namespaces;
  private final EngineFixtures fixtures;

  EnginesBurst(EnginesRun r) {
    this.opts = r.opts;
    this.home = r.home;
    this.work = r.work;
    this.kube = r.kube;
    this.api = r.api;
    this.run = r.run;
    this.rows = r.rows;
    this.notes = r.notes;
    this.detail = r.detail;
    this.figures = r.figures;
    this.created = r.created;
    this.namespaces = r.namespaces;
    this.fixtures = new EngineFixtures(r);
  }

  /** One burst: who was asked for what, when it was accepted and when a list first showed it Ready. */
  static final class Burst {
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
  Burst burst(List<String> nss, int n, int threads, String prefix, int maxSeconds) throws Exception {
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
      HttpResponse<String> r = api.create(b.ns[i], b.kinds[i], fixtures.request(b.ns[i], b.kinds[i], b.names[i]));
      b.statuses.merge(r.statusCode(), 1, Integer::sum);
      if (r.statusCode() != 201) {
        notes.add("burst " + b.kinds[i] + " " + b.names[i] + ": POST answered " + r.statusCode() + " "
            + r.body().substring(0, Math.min(300, r.body().length())));
        return;
      }
      created.add(new String[] {b.ns[i], b.kinds[i], b.names[i]});
      if (EngineFixtures.needsOidc(b.kinds[i])) {
        fixtures.oidcClientReady(b.ns[i], b.kinds[i], b.names[i]);
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

  void p5(int n, int nsCount, int threads, long pid, long kubePid) throws Exception {
    log("P5-mixed: %d instances of the four kinds over %d namespaces, %d POST threads", n, nsCount, threads);
    List<String> nss = fixtures.prepareNamespaces("be5-" + run, nsCount);
    long heapBefore = Proc.heapUsedAfterGcKb(pid);
    long rssBefore = Proc.rssKb(pid);
    Map<String, Double> threads0 = ThreadCpu.snapshot(pid);
    Map<String, Double> kubeThreads0 = ThreadCpu.snapshot(kubePid);
    long[] cpuBefore = Proc.stackCpuTicks(home, pid, kubePid);
    long[] machineBefore = Proc.machineTicks();
    Burst b = burst(nss, n, threads, "", opt("p5-max-seconds", 600));
    notReady(b, "P5-mixed");
    long[] cpuAfter = Proc.stackCpuTicks(home, pid, kubePid);
    long[] machineAfter = Proc.machineTicks();
    Map<String, Double> threads1 = ThreadCpu.snapshot(pid);
    Map<String, Double> kubeThreads1 = ThreadCpu.snapshot(kubePid);
    long rssAfter = Proc.rssKb(pid);
    long heapAfter = Proc.heapUsedAfterGcKb(pid);
    Files.writeString(work.resolve("class-histogram-after-p5-mixed.txt"), ClassHistogram.take(pid));

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

    String cpu = Proc.cpuTable("engines-service", cpuBefore, cpuAfter, machineBefore, machineAfter);
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
  void notReady(Burst b, String what) {
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
      List<HasMetadata> objects = fixtures.objectsIn(ns);
      for (HasMetadata o : objects) {
        if ("engines-service".equals(o.getMetadata().getLabels() == null ? null
            : o.getMetadata().getLabels().get(MANAGED_BY))) {
          count.merge(o.getKind(), 1, Integer::sum);
        }
      }
    }
    return count;
  }

  private int opt(String name, int fallback) {
    return BenchCli.intOption(opts, name, fallback);
  }

  private static void log(String format, Object... args) {
    BenchCli.log("bench", format, args);
  }
}
