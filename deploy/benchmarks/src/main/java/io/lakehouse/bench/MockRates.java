package io.lakehouse.bench;

import static io.lakehouse.bench.Loops.parallel;
import static io.lakehouse.bench.Main.BENCH_LABEL;
import static io.lakehouse.bench.Main.M_NAMESPACE;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** M: the local API's own create (and delete) rate, on its own and filled as P5 fills it. */
final class MockRates {

  private final KubernetesClient kube;
  private final String run;
  private final List<String> rows;
  private final List<String> notes;
  private final Map<String, Double> figures;
  private final StringBuilder detail;

  MockRates(CatalogRun r) {
    this.kube = r.kube;
    this.run = r.run;
    this.rows = r.rows;
    this.notes = r.notes;
    this.figures = r.figures;
    this.detail = r.detail;
  }

  record MockRate(Stats create, double createSeconds, Stats delete, double deleteSeconds, int errors) {
    double createsPerSecond() {
      return create.count() / createSeconds;
    }
  }

  MockRate mockRate(String label, int n, int threads) throws Exception {
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
  void fill(int n, int threads) throws Exception {
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

  private static void log(String format, Object... args) {
    BenchCli.log("bench", format, args);
  }
}
