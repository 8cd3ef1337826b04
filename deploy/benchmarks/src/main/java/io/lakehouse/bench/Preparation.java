package io.lakehouse.bench;

import static io.lakehouse.bench.Loops.parallel;
import static io.lakehouse.bench.Main.BENCH_LABEL;
import static io.lakehouse.bench.Main.M_NAMESPACE;
import static io.lakehouse.bench.Main.P3_NAMESPACE;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Before measuring: instances of an interrupted run removed, and every JVM of the stack warmed up. */
final class Preparation {

  private final KubernetesClient kube;
  private final Api api;
  private final String run;
  private final List<String> notes;

  Preparation(CatalogRun r) {
    this.kube = r.kube;
    this.api = r.api;
    this.run = r.run;
    this.notes = r.notes;
  }

  /** Instances left by an interrupted run: deleted (bounded) so that every run starts from the same state. */
  void removeLeftovers(List<String> namespaces) throws InterruptedException {
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

  /**
   * Unmeasured: every JVM of the stack was just (re)started, and the first thousands of calls run interpreted code.
   * ConfigMaps on the mock, then {@code catalogs} catalogs through their whole life (create, Ready, delete).
   */
  void warmUp(int catalogs) throws Exception {
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
    parallel(catalogs, 4, i -> api.createCatalog(P3_NAMESPACE, names.get(i), Buckets.secret(P3_NAMESPACE)));
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

  private static void log(String format, Object... args) {
    BenchCli.log("bench", format, args);
  }
}
