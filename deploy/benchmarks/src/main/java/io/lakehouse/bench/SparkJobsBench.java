package io.lakehouse.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Quality bar P12 against a running sparkjobs-service: "launch → SparkApplication created" (the launch answers
 * 201 only once the SparkApplication exists, so its latency is the measure), one at a time on an idle system, then
 * the throughput of concurrent launches; then P1-style reads of the history those launches made (a page of 50,
 * newest first, and filtered by state). Every created application is counted on the API server at the end.
 *
 * <pre>
 * java -cp 'target/benchmarks-0.1.0-SNAPSHOT.jar:target/lib/*' io.lakehouse.bench.SparkJobsBench \
 *   --home .local --out results.md [--api http://127.0.0.1:8084] [--kube http://127.0.0.1:56443]
 *   [--latency 200] [--throughput 1000] [--threads 8] [--warm-up 50] [--reads 2000]
 * </pre>
 */
public final class SparkJobsBench {

  private static final ResourceDefinitionContext APPS = new ResourceDefinitionContext.Builder()
      .withGroup("sparkoperator.k8s.io").withVersion("v1beta2").withKind("SparkApplication")
      .withPlural("sparkapplications").withNamespaced(true).build();
  private static final String FORM = "{\"name\":\"%s\",\"image\":\"apache/spark:3.5.3\","
      + "\"source\":{\"type\":\"script\",\"script\":\"print(1)\\n\"}}";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String api;
  private final String token;

  private SparkJobsBench(String api, String token) {
    this.api = api;
    this.token = token;
  }

  public static void main(String[] argv) throws Exception {
    Map<String, String> opts = BenchCli.options(argv);
    Path home = Path.of(opts.getOrDefault("home", ".local"));
    String api = opts.getOrDefault("api", "http://127.0.0.1:8084");
    if (!URI.create(api).getHost().equals("127.0.0.1")) {
      throw new IllegalArgumentException("benchmarks only talk to 127.0.0.1: " + api);
    }
    SparkJobsBench bench = new SparkJobsBench(api, BenchCli.token(opts, home));
    String run = BenchCli.runId();
    String ns = "bench-" + run;
    int warmUp = BenchCli.intOption(opts, "warm-up", 50);
    int latency = BenchCli.intOption(opts, "latency", 200);
    int throughput = BenchCli.intOption(opts, "throughput", 1000);
    int threads = BenchCli.intOption(opts, "threads", 8);
    int reads = BenchCli.intOption(opts, "reads", 2000);

    for (int i = 0; i < warmUp; i++) {
      bench.launch(ns + "-w", "w" + i);
    }
    Stats single = new Stats("P12 launch → SparkApplication created, one at a time");
    for (int i = 0; i < latency; i++) {
      single.add(bench.launch(ns, "l" + i));
    }
    Stats concurrent = new Stats("P12 launches, " + threads + " threads");
    long t0 = System.nanoTime();
    bench.parallel(threads, throughput, i -> concurrent.add(bench.launch(ns, "t" + i)));
    double seconds = (System.nanoTime() - t0) / 1e9;
    Stats page = new Stats("history page of 50, newest first");
    Stats filtered = new Stats("history filtered ?state=NEW, page of 50");
    for (int i = 0; i < reads; i++) {
      page.add(bench.get("/api/v1/namespaces/" + ns + "/spark-jobs?limit=50"));
      filtered.add(bench.get("/api/v1/namespaces/" + ns + "/spark-jobs?state=NEW&limit=50"));
    }
    int created;
    try (KubernetesClient kube = BenchCli.kube(opts)) {
      created = kube.genericKubernetesResources(APPS).inNamespace(ns).list().getItems().size();
    }
    String out = String.join("\n",
        Stats.f("P12 (sparkjobs-service, run %s): %d warm-up launches, then %d one at a time, %d on %d threads;"
            + " %d SparkApplications in the namespace afterwards (expected %d).", run, warmUp, latency, throughput,
            threads, created, latency + throughput),
        "", Stats.header(),
        single.row("–"),
        concurrent.row(Stats.rate(throughput, seconds, "launches")),
        page.row("–"),
        filtered.row("–"), "");
    Files.writeString(Path.of(opts.getOrDefault("out", "results.md")), out);
    System.out.println(out);
    if (created != latency + throughput) {
      throw new IllegalStateException("expected " + (latency + throughput) + " SparkApplications, found " + created);
    }
  }

  /** One launch; its latency in nanoseconds (201 only once the SparkApplication exists). */
  private long launch(String namespace, String name) {
    HttpRequest request = HttpRequest.newBuilder(URI.create(api + "/api/v1/namespaces/" + namespace + "/spark-jobs"))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.ofString(String.format(FORM, name))).build();
    return timed(request, 201);
  }

  private long get(String path) {
    HttpRequest request = HttpRequest.newBuilder(URI.create(api + path)).header("Authorization", "Bearer " + token)
        .timeout(Duration.ofSeconds(30)).GET().build();
    return timed(request, 200);
  }

  private long timed(HttpRequest request, int expected) {
    long start = System.nanoTime();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      long took = System.nanoTime() - start;
      if (response.statusCode() != expected) {
        throw new IllegalStateException(request.uri() + ": " + response.statusCode() + " " + response.body());
      }
      return took;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private interface Task {
    void run(int index);
  }

  private void parallel(int threads, int count, Task task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicInteger next = new AtomicInteger();
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      done.add(pool.submit(() -> {
        for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
          task.run(i);
        }
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
  }
}
