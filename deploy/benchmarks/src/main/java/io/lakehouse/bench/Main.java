package io.lakehouse.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

  private final CatalogRun r;
  private final StringBuilder md = new StringBuilder();

  private Main(Map<String, String> opts) {
    this.r = new CatalogRun(opts);
  }

  public static void main(String[] argv) throws Exception {
    Main main = new Main(BenchCli.options(argv));
    int rc;
    try {
      rc = main.runAll();
    } finally {
      main.r.kube.close();
    }
    System.exit(rc);
  }

  private static void log(String format, Object... args) {
    BenchCli.log("bench", format, args);
  }

  private int runAll() throws Exception {
    Path work = r.work;
    KubernetesClient kube = r.kube;
    Api api = r.api;
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
    long catalogPid = Proc.pidFromFile(r.home.resolve("run/catalog.pid"))
        .orElseThrow(() -> new IllegalStateException("no running catalog-service (run/catalog.pid)"));
    long kubePid = Proc.pidFromFile(r.home.resolve("run/kube.pid"))
        .orElseThrow(() -> new IllegalStateException("no running local Kubernetes API (run/kube.pid)"));
    String header = new Environment(r).environment(loadAtStart, catalogPid, kubePid);
    log("run id %s; load average at start %s", r.run, loadAtStart);

    int p5Namespaces = r.opt("p5-namespaces", 10);
    List<String> p5ns = new ArrayList<>();
    for (int i = 0; i < p5Namespaces; i++) {
      p5ns.add("bench-p5-" + i);
    }
    List<String> benchNamespaces = new ArrayList<>(List.of(P3_NAMESPACE));
    benchNamespaces.addAll(p5ns);
    Preparation preparation = new Preparation(r);
    preparation.removeLeftovers(benchNamespaces);
    benchNamespaces.forEach(ns -> Buckets.namespace(kube, ns));

    preparation.warmUp(r.opt("warm-up", 100));
    // M first, on an (almost) empty store: the yardstick every service figure is divided by.
    MockRates mock = new MockRates(r);
    MockRates.MockRate m = mock.mockRate("M", r.opt("m", 2000), r.opt("m-threads", 4));
    MockRates.MockRate m1 = mock.mockRate("M1", Math.max(1, r.opt("m", 2000) / 4), 1);
    if (r.opt("p3", 100) > 0) {
      new P3Bench(r).p3(r.opt("p3", 100), m1, catalogPid, kubePid);
    }
    if (r.opt("p5", 1000) > 0) {
      new P5Bench(r).p5(p5ns, r.opt("p5", 1000), r.opt("p5-threads", 8), m, catalogPid, kubePid);
      MockRates.MockRate loaded =
          mock.mockRate("M (loaded)", Math.max(1, r.opt("m", 2000) / 2), r.opt("m-threads", 4));
      r.notes.add(Stats.f("M (loaded) repeats M right after P5, while the mock holds the objects of %d catalogs:"
          + " %.0f creates/s, vs %.0f on the almost empty store (the fabric8 mock's scan of its whole store made"
          + " this 15 × lower; local-kit's indexed store should keep it level).", r.created.size(),
          loaded.createsPerSecond(), m.createsPerSecond()));
    }
    new Cleanup(r).cleanup(benchNamespaces);
    if (r.opt("fill", 11 * r.opt("p5", 1000)) > 0) {
      mock.fill(r.opt("fill", 11 * r.opt("p5", 1000)), r.opt("m-threads", 4));
    }

    md.append(header).append('\n');
    md.append("### Results\n\n").append(Stats.header()).append('\n');
    r.rows.forEach(row -> md.append(row).append('\n'));
    md.append('\n');
    md.append(r.detail);
    if (!r.notes.isEmpty()) {
      md.append("\n### Notes of this run\n\n");
      r.notes.forEach(n -> md.append("- ").append(n).append('\n'));
    }
    Path out = Path.of(r.opts.getOrDefault("out", work.resolve("results.md").toString()));
    Files.writeString(out, md.toString(), StandardCharsets.UTF_8);
    StringBuilder tsv = new StringBuilder();
    r.figures.forEach((k, v) -> tsv.append(k).append('\t').append(v).append('\n'));
    Files.writeString(work.resolve("figures.tsv"), tsv.toString());
    System.out.println(md);
    return 0;
  }
}
