package io.lakehouse.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the phases of {@code run --all} ({@link AllBench}) share: the options, the stack (services and their ports,
 * the local API, Kafka, PostgreSQL), one API client per service, the run's namespaces, and what the run reports.
 */
final class AllRun {

  /** The services of the stack, in the order of the table. */
  static final List<String> SERVICES = List.of("catalog", "engines", "notebooks", "sparkjobs", "access");

  final Map<String, String> opts;
  final Path home;
  final Path work;
  final KubernetesClient kube;
  final String kubeUrl;
  final String kafka;
  final int pgPort;
  final Sql sql;
  final String run = BenchCli.runId();
  /**
   * The 1-minute load average before the stack started ({@code --load-before-stack}, from deploy/benchmarks/run), -1
   * when not given: the machine's other work, which the provisional verdicts of wall-clock figures go by ({@link BarRow}).
   */
  final double loadBeforeStack;
  final Map<String, Api> apis = new LinkedHashMap<>();
  final List<BarRow> rows = Collections.synchronizedList(new ArrayList<>());
  final List<String> notes = Collections.synchronizedList(new ArrayList<>());
  final StringBuilder detail = new StringBuilder();
  /** The run's namespaces: catalogs are spread over them round robin (≤ 500 each, one page of the list API). */
  final List<String> namespaces = new ArrayList<>();
  private final AtomicInteger catalogs = new AtomicInteger();

  AllRun(Map<String, String> opts) {
    this.opts = opts;
    this.home = Path.of(opts.getOrDefault("home", ".local")).toAbsolutePath();
    this.work = Path.of(opts.getOrDefault("work", "deploy/benchmarks/target/all")).toAbsolutePath();
    this.kubeUrl = opts.getOrDefault("kube", "http://127.0.0.1:56443");
    this.kube = BenchCli.kube(opts);
    this.kafka = opts.getOrDefault("kafka", "127.0.0.1:59092");
    this.pgPort = opt("pg-port", 55432);
    this.sql = new Sql(pgPort);
    this.loadBeforeStack = Double.parseDouble(opts.getOrDefault("load-before-stack", "-1"));
    String token = BenchCli.token(opts, home);
    for (String entry : opts.getOrDefault("services", "").trim().split("\\s+")) {
      String[] nameAndPort = entry.split(":");
      if (nameAndPort.length == 2 && SERVICES.contains(nameAndPort[0])) {
        apis.put(nameAndPort[0], new Api("http://127.0.0.1:" + nameAndPort[1], token));
      }
    }
    if (apis.isEmpty()) {
      throw new IllegalArgumentException("--services 'catalog:PORT engines:PORT …' names no service");
    }
    for (int i = 0; i < opt("namespaces", 20); i++) {
      namespaces.add(Stats.f("all-%s-%02d", run, i));
    }
  }

  int opt(String name, int fallback) {
    return BenchCli.intOption(opts, name, fallback);
  }

  Api api(String service) {
    return apis.get(service);
  }

  long pid(String service) {
    return Proc.pidFromFile(home.resolve("run/" + service + ".pid")).orElse(-1L);
  }

  void row(String figure, String service, String what, String target, String measured, Boolean met,
      boolean wallClock) {
    rows.add(new BarRow(figure, service, what, target, measured, met, wallClock, BarRow.loadNow()));
    BenchCli.log("all", "%s %s %s: %s (target %s)", figure, service, what, measured, target);
  }

  // ------------------------------------------------------------------ catalogs, the instances most figures count

  /** How many catalogs this run has created so far. */
  int catalogCount() {
    return catalogs.get();
  }

  /** Creates the next catalog (round robin over the namespaces); whether the API answered 201. */
  boolean createCatalog() {
    int i = catalogs.getAndIncrement();
    String ns = namespaces.get(i % namespaces.size());
    HttpResponse<String> r = api("catalog").createCatalog(ns, Stats.f("c%05d", i), Buckets.secret(ns));
    if (r.statusCode() != 201 && notes.size() < 50) {
      notes.add("POST catalog " + i + ": " + r.statusCode() + " " + r.body());
    }
    return r.statusCode() == 201;
  }

  /** Catalogs of this run in phase Ready, over all its namespaces (one list page each). */
  int readyCatalogs() {
    return readyCatalogs(namespaces);
  }

  /** Catalogs in phase Ready in these namespaces (one list page each). */
  int readyCatalogs(List<String> in) {
    int ready = 0;
    for (String ns : in) {
      for (JsonNode item : api("catalog").list(ns)) {
        ready += "Ready".equals(item.path("status").path("phase").asText()) ? 1 : 0;
      }
    }
    return ready;
  }

  /** Waits (polling every second, at most {@code seconds}) until every catalog created is Ready; the seconds taken. */
  double awaitCatalogsReady(int seconds) throws InterruptedException {
    long t0 = System.nanoTime();
    long deadline = t0 + TimeUnit.SECONDS.toNanos(seconds);
    int ready = readyCatalogs();
    while (ready < catalogs.get()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(Stats.f("only %d of %d catalogs Ready after %d s", ready, catalogs.get(),
            seconds));
      }
      Thread.sleep(1000);
      ready = readyCatalogs();
    }
    return (System.nanoTime() - t0) / 1e9;
  }
}
