package io.lakehouse.bench;

import static io.lakehouse.bench.Loops.parallel;
import static io.lakehouse.bench.Loops.sleepUntil;
import static io.lakehouse.bench.Main.M_NAMESPACE;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** After the run: every instance it created deleted, what the service left behind reported and removed. */
final class Cleanup {

  private final CatalogRun r;

  Cleanup(CatalogRun r) {
    this.r = r;
  }

  void cleanup(List<String> namespaces) throws Exception {
    List<String[]> all = new ArrayList<>(r.created);
    log("cleanup: deleting %d instances", all.size());
    long logOffset = Files.size(r.home.resolve("logs/catalog.log"));
    Stats delete = new Stats("Cleanup: DELETE → 202 (8 threads)");
    Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
    long t0 = System.nanoTime();
    double deleteSeconds = parallel(all.size(), 8, i -> {
      String[] k = all.get(i);
      long s = System.nanoTime();
      HttpResponse<String> response = r.api.delete(r.api.instances(k[0]) + "/" + k[1]);
      statuses.merge(response.statusCode(), 1, Integer::sum);
      if (response.statusCode() == 202) {
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
        for (JsonNode item : r.api.list(ns)) {
          left += item.path("name").asText().contains("-" + r.run + "-") ? 1 : 0;
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
      for (JsonNode item : r.api.list(ns)) {
        if (item.path("name").asText().contains("-" + r.run + "-")) {
          stuck.add(ns + "/" + item.path("name").asText() + " (" + item.path("status").path("phase").asText() + ")");
        }
      }
    }
    if (!stuck.isEmpty()) {
      r.notes.add(Stats.f("cleanup: %d instances still listed after %.0f s (%s): %s", stuck.size(), gone,
          stalled ? "none went away for 90 s" : "10 min bound", stuck.stream().limit(20)
              .collect(Collectors.joining(", "))));
      r.figures.put("cleanup.stuck", (double) stuck.size());
    }
    r.rows.add(delete.row(Stats.rate(delete.count(), deleteSeconds, "deletes")));
    r.figures.put("cleanup.total_s", gone);
    // What the service left behind (should be nothing but the bucket Secrets), then remove the namespaces.
    Map<String, Integer> orphans = new TreeMap<>();
    for (String ns : namespaces) {
      List<HasMetadata> objects = new ArrayList<>();
      objects.addAll(r.kube.configMaps().inNamespace(ns).list().getItems());
      objects.addAll(r.kube.secrets().inNamespace(ns).list().getItems());
      objects.addAll(r.kube.apps().deployments().inNamespace(ns).list().getItems());
      objects.addAll(r.kube.services().inNamespace(ns).list().getItems());
      objects.addAll(r.kube.network().v1().ingresses().inNamespace(ns).list().getItems());
      objects.addAll(r.kube.batch().v1().jobs().inNamespace(ns).list().getItems());
      objects.addAll(r.kube.genericKubernetesResources(ObjectWatch.CNPG_CLUSTER).inNamespace(ns).list().getItems());
      for (HasMetadata o : objects) {
        if (o.getMetadata().getName().equals(Buckets.secret(ns))) {
          continue;
        }
        orphans.merge(o.getKind(), 1, Integer::sum);
        r.kube.resource(o).delete();
      }
      r.kube.secrets().inNamespace(ns).withName(Buckets.secret(ns)).delete();
      r.kube.namespaces().withName(ns).delete();
    }
    r.kube.namespaces().withName(M_NAMESPACE).delete();
    r.detail.append("### Cleanup\n\n")
        .append(Stats.f("- %d DELETEs (statuses %s) sent in %.1f s; %s after %.1f s%n", all.size(), statuses,
            deleteSeconds, left == 0 ? "every instance gone (list empty)" : left + " instances still listed",
            gone))
        .append(Stats.f("- objects left in the benchmark namespaces afterwards (besides the bucket Secrets): %s%n",
            orphans.isEmpty() ? "none" : orphans.toString()))
        .append('\n').append(CatalogLog.summary(r.home, logOffset, "cleanup")).append('\n');
    log("cleanup: %d gone after %.1f s, %d left, orphans %s", all.size(), gone, left, orphans);
  }

  private static void log(String format, Object... args) {
    BenchCli.log("bench", format, args);
  }
}
