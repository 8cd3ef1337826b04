package io.lakehouse.bench;

import static io.lakehouse.bench.EnginesBench.BUCKET_SECRET;
import static io.lakehouse.bench.EnginesBench.CATALOG;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** After a burst or the run: the benchmark's instances deleted, and what engines-service left behind removed. */
final class EnginesCleanup {

  private final KubernetesClient kube;
  private final Api api;
  private final Events events;
  private final String run;
  private final List<String> notes;
  private final StringBuilder detail;
  private final List<String[]> created;
  private final List<String> namespaces;
  private final EngineFixtures fixtures;

  EnginesCleanup(EnginesRun r) {
    this.kube = r.kube;
    this.api = r.api;
    this.events = r.events;
    this.run = r.run;
    this.notes = r.notes;
    this.detail = r.detail;
    this.created = r.created;
    this.namespaces = r.namespaces;
    this.fixtures = new EngineFixtures(r);
  }

  /** DELETE of each instance (8 threads), then lists until all are gone (bounded: 5 min, 90 s without progress). */
  void deleteInstances(List<String[]> all, String what) throws Exception {
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
      if (EngineFixtures.needsOidc(k[1])) {
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
  void cleanup() {
    try {
      deleteInstances(new ArrayList<>(created), "cleanup");
    } catch (Exception e) {
      notes.add("cleanup of the instances failed: " + e);
    }
    Map<String, Integer> orphans = new TreeMap<>();
    for (String ns : new ArrayList<>(namespaces)) {
      try {
        for (HasMetadata o : fixtures.objectsIn(ns)) {
          String name = o.getMetadata().getName();
          boolean ours = name.equals(BUCKET_SECRET) || name.endsWith("-oidc");
          if (!ours && !"kube-root-ca.crt".equals(name)) {
            orphans.merge(o.getKind(), 1, Integer::sum);
          }
          kube.resource(o).delete();
        }
        events.send(Events.INSTANCES, "/lakehouse/catalog-service", "lakehouse.instance.deleted.v1",
            ns + "/iceberg-catalog/" + CATALOG, fixtures.catalogData(ns, "Deleting"));
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

  private static void log(String format, Object... args) {
    BenchCli.log("bench", format, args);
  }
}
