package io.lakehouse.bench;

import io.lakehouse.local.LocalTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Forward-auth of access-service ({@code GET /api/v1/authz?host=}) with many grants loaded: latency
 * (one caller, sequential) and throughput (several callers), answered from the in-memory index. Not
 * a test: run by {@code deploy/benchmarks/run --authz} against a running access-service that
 * validates the local issuer's tokens ({@code lakehouse up} without {@code --with-keycloak}).
 *
 * <p>Load: {@code --instances} trino instances made to exist the way engines-service does it
 * ({@code instance.requested} on {@code lakehouse.instances}; the deployer gets the first grant), then
 * {@code --grants-per-instance - 1} more subjects per instance through {@code POST .../grants}
 * (two thirds users, one third groups). Calls mix: a user's own grant (50 %), a grant through one of
 * three groups (25 %), no grant (20 %, 403), unknown host (5 %, 404). Every answer is checked.
 * At the end the instances are deleted again ({@code instance.deleted}: grants gone).
 */
public final class AuthzBench {

  static final String ISSUER = "https://lakehouse.local/issuer";
  static final String DOMAIN = "lakehouse.localtest.me";

  private final Map<String, String> opts;
  private final Path home;
  private final HttpClient http;
  private final String base;
  private final LocalTokens tokens;
  private final String admin;
  private final String run;
  private final String ns;
  private final List<String> notes = new ArrayList<>();
  private final List<String> rows = new ArrayList<>();

  private AuthzBench(Map<String, String> opts) {
    this.opts = opts;
    this.home = Path.of(opts.getOrDefault("home", ".local")).toAbsolutePath();
    this.base = BenchCli.api(opts, "access");
    if (!URI.create(base).getHost().equals("127.0.0.1")) {
      throw new IllegalArgumentException("benchmarks only talk to 127.0.0.1: " + base);
    }
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
        .executor(Executors.newFixedThreadPool(4, r -> {
          Thread t = new Thread(r, "authz-http");
          t.setDaemon(true);
          return t;
        })).build();
    this.tokens = LocalTokens.load(home.resolve("keys"));
    this.admin = sign("bench", "platform-admins");
    this.run = UUID.randomUUID().toString().substring(0, 4);
    this.ns = "bench-authz-" + run;
  }

  public static void main(String[] argv) throws Exception {
    Map<String, String> opts = BenchCli.options(argv);
    System.exit(new AuthzBench(opts).runAll());
  }

  private int opt(String name, int fallback) {
    return BenchCli.intOption(opts, name, fallback);
  }

  private static void log(String format, Object... args) {
    BenchCli.log("authz", format, args);
  }

  private String sign(String user, String... groups) {
    return tokens.sign(ISSUER, user, List.of(groups), Duration.ofHours(2));
  }

  private int runAll() throws Exception {
    String loadAtStart = Proc.loadAverage();
    int instances = opt("instances", 100);
    int perInstance = opt("grants-per-instance", 100);
    int requests = opt("requests", 20000);
    int threads = opt("threads", 4);
    int seconds = opt("seconds", 15);
    String ready = Api.management(base) + "/q/health/ready";
    if (send(HttpRequest.newBuilder(URI.create(ready)).timeout(Duration.ofSeconds(30)).GET().build()).statusCode() != 200) {
      log("access-service is not ready on %s: start the stack first", ready);
      return 1;
    }
    int probe = send(get("/api/v1/authz?host=probe." + DOMAIN, admin)).statusCode();
    if (probe != 404) {
      log("access-service answers %d to a local-issuer token (expected 404 for an unknown host): it may validate"
          + " Keycloak tokens; restart the stack without --with-keycloak (lakehouse down; lakehouse up)", probe);
      return 1;
    }
    long pid = Proc.pidFromFile(home.resolve("run/access.pid"))
        .orElseThrow(() -> new IllegalStateException("no running access-service (run/access.pid)"));
    String header = environment(loadAtStart, pid);
    long heap0 = Proc.heapUsedAfterGcKb(pid);
    long rss0 = Proc.rssKb(pid);

    // --- load ------------------------------------------------------------------------------------------
    log("namespace %s: %d trino instances, %d grants each", ns, instances, perInstance);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < instances; i++) {
      names.add(String.format(Locale.ROOT, "t%04d", i));
    }
    long t0 = System.nanoTime();
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (String name : names) {
        producer.send(instanceEvent("lakehouse.instance.requested.v1", name));
      }
      producer.flush();
    }
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    for (String name : names) {
      while (send(get(grantsPath(name), admin)).statusCode() != 200) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("access-service did not learn instance " + name + " within 3 min");
        }
        Thread.sleep(100);
      }
    }
    double known = (System.nanoTime() - t0) / 1e9;
    Stats post = new Stats(Stats.f("load: POST grants, %d subjects per call (1 thread)", perInstance - 1));
    long p0 = System.nanoTime();
    for (int i = 0; i < instances; i++) {
      StringBuilder body = new StringBuilder("{\"subjects\":[");
      for (int j = 1; j < perInstance; j++) {
        body.append(j == 1 ? "" : ",").append('"').append(subject(i, j)).append('"');
      }
      body.append("]}");
      long s = System.nanoTime();
      HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + grantsPath(names.get(i))))
          .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + admin)
          .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.toString()))
          .build());
      if (r.statusCode() != 200 && r.statusCode() != 201) {
        throw new IllegalStateException("POST grants of " + names.get(i) + ": " + r.statusCode() + " " + r.body());
      }
      post.add(System.nanoTime() - s);
    }
    double postSeconds = (System.nanoTime() - p0) / 1e9;
    int total = instances * perInstance;
    rows.add(post.row(Stats.rate(post.count() * (perInstance - 1), postSeconds, "grants")));
    long heap1 = Proc.heapUsedAfterGcKb(pid);
    long rss1 = Proc.rssKb(pid);
    log("loaded %d grants (instances known after %.1f s, grants posted in %.1f s)", total, known, postSeconds);

    // --- the calls --------------------------------------------------------------------------------------
    List<Call> mix = calls(names, perInstance);
    log("warm-up: %d calls (not measured)", opt("warm-up", 20000));
    sequential(mix, opt("warm-up", 20000), null);
    Thread.sleep(2000);

    Map<String, Long> scans0 = tableScans();
    long cpu0 = Proc.cpuTicks(pid);
    Map<String, Stats> byKind = new java.util.LinkedHashMap<>();
    for (String kind : List.of("own grant → 200", "group grant → 200", "no grant → 403", "unknown host → 404")) {
      byKind.put(kind, new Stats("authz, 1 caller: " + kind));
    }
    Stats all = new Stats(Stats.f("**authz, 1 caller, sequential (%d grants loaded)**", total));
    long s0 = System.nanoTime();
    long wrong = sequential(mix, requests, (c, nanos) -> {
      all.add(nanos);
      byKind.get(c.kind).add(nanos);
    });
    double seqSeconds = (System.nanoTime() - s0) / 1e9;
    double cpuMsPerCall = (Proc.cpuTicks(pid) - cpu0) * 1000.0 / Proc.TICKS_PER_SECOND / requests;
    Thread.sleep(1500); // PostgreSQL publishes table statistics about once a second
    Map<String, Long> scans1 = tableScans();
    rows.add(all.row(Stats.f("**%.0f calls/s**", all.count() / seqSeconds)));
    byKind.values().forEach(k -> rows.add(k.row("")));

    Stats loaded = new Stats(Stats.f("**authz, %d callers, %d s (%d grants loaded)**", threads, seconds, total));
    long cpuL0 = Proc.cpuTicks(pid);
    long[] machine0 = Proc.machineTicks();
    AtomicLong wrongUnderLoad = new AtomicLong();
    long l0 = System.nanoTime();
    long end = l0 + TimeUnit.SECONDS.toNanos(seconds);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int offset = t * 7919;
      workers.add(pool.submit(() -> {
        int k = offset;
        while (System.nanoTime() < end) {
          Call c = mix.get(k++ % mix.size());
          long s = System.nanoTime();
          int status = send(c.request).statusCode();
          loaded.add(System.nanoTime() - s);
          if (status != c.expected) {
            wrongUnderLoad.incrementAndGet();
          }
        }
        return null;
      }));
    }
    for (Future<?> w : workers) {
      w.get(seconds + 60L, TimeUnit.SECONDS);
    }
    pool.shutdown();
    double loadSeconds = (System.nanoTime() - l0) / 1e9;
    long[] machine1 = Proc.machineTicks();
    double cpuMsPerLoadedCall = (Proc.cpuTicks(pid) - cpuL0) * 1000.0 / Proc.TICKS_PER_SECOND / loaded.count();
    // /proc/stat's first line sums every core: busy / total is the share of the whole machine.
    double machineShare = (machine1[0] - machine0[0]) / (double) Math.max(1, machine1[1] - machine0[1]);
    double serviceCores = (Proc.cpuTicks(pid) - cpuL0) / Proc.TICKS_PER_SECOND / loadSeconds;
    rows.add(loaded.row(Stats.f("**%.0f calls/s**", loaded.count() / loadSeconds)));
    log("sequential: p50 %.2f ms, p99 %.2f ms, %.0f/s; %d callers: %.0f/s", all.percentileMs(50),
        all.percentileMs(99), all.count() / seqSeconds, threads, loaded.count() / loadSeconds);

    // --- clean up ---------------------------------------------------------------------------------------
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (String name : names) {
        producer.send(instanceEvent("lakehouse.instance.deleted.v1", name));
      }
      producer.flush();
    }

    StringBuilder md = new StringBuilder(header).append('\n');
    md.append("### Results\n\n").append(Stats.header()).append('\n');
    rows.forEach(r -> md.append(r).append('\n'));
    md.append('\n');
    md.append(Stats.f("- %d instances became known through `instance.requested` in %.1f s; %d grants in all"
        + " (the deployer's + %d posted per instance)%n", instances, known, total, perInstance - 1));
    md.append(Stats.f("- answers checked: %d wrong of %d sequential calls, %d wrong of %d under load%n", wrong,
        requests, wrongUnderLoad.get(), loaded.count()));
    md.append(Stats.f("- access-service CPU: **%.3f ms per call** sequential, %.3f ms under load (incl. the token"
        + " signature check of quarkus-oidc); under load it used %.2f cores, the machine (%d cores) was %.0f %% busy"
        + " (the benchmark client and other builds share it)%n", cpuMsPerCall, cpuMsPerLoadedCall, serviceCores,
        Runtime.getRuntime().availableProcessors(), 100 * machineShare));
    md.append(Stats.f("- no database round trip: index and sequential scans of `access.grants` / `access.instances`"
        + " during the %d sequential calls: %s%n", requests, scanDelta(scans0, scans1)));
    md.append(Stats.f("- memory: heap used after a full GC %.1f → %.1f MiB with the grants loaded (%+.2f KiB per"
        + " grant, instances and host index included); RSS %.0f → %.0f MiB%n", heap0 / 1024.0, heap1 / 1024.0,
        (heap1 - heap0) / (double) total, rss0 / 1024.0, rss1 / 1024.0));
    if (!notes.isEmpty()) {
      md.append("\n### Notes of this run\n\n");
      notes.forEach(n -> md.append("- ").append(n).append('\n'));
    }
    Path out = Path.of(opts.getOrDefault("out", "authz-results.md"));
    Files.writeString(out, md.toString(), StandardCharsets.UTF_8);
    System.out.println(md);
    return wrong == 0 && wrongUnderLoad.get() == 0 ? 0 : 2;
  }

  /** Subject j of instance i: j = 1..65 users, the rest groups. */
  private static String subject(int i, int j) {
    return j < 66 ? Stats.f("user:u%d-%d", i, j) : Stats.f("group:/g%d-%d", i, j);
  }

  record Call(String kind, HttpRequest request, int expected) {}

  private List<Call> calls(List<String> names, int perInstance) {
    Random random = new Random(42);
    List<Call> mix = new ArrayList<>();
    String denied = sign("nobody", "other-team", "data-readers", "ops");
    for (int k = 0; k < 2000; k++) {
      int i = random.nextInt(names.size());
      String host = names.get(i) + "-" + ns + "." + DOMAIN;
      int roll = random.nextInt(100);
      if (roll < 50) {
        int j = 1 + random.nextInt(Math.min(65, perInstance - 1));
        mix.add(new Call("own grant → 200", get("/api/v1/authz?host=" + host, sign(Stats.f("u%d-%d", i, j))), 200));
      } else if (roll < 75 && perInstance > 66) {
        int j = 66 + random.nextInt(perInstance - 66);
        mix.add(new Call("group grant → 200", get("/api/v1/authz?host=" + host,
            sign("member-" + k, "other-team", Stats.f("g%d-%d", i, j), "ops")), 200));
      } else if (roll < 95) {
        mix.add(new Call("no grant → 403", get("/api/v1/authz?host=" + host, denied), 403));
      } else {
        mix.add(new Call("unknown host → 404", get("/api/v1/authz?host=missing-" + k + "-" + ns + "." + DOMAIN,
            denied), 404));
      }
    }
    return mix;
  }

  interface Sample {
    void add(Call call, long nanos);
  }

  /** {@code n} calls one after the other, cycling through the mix; returns the number of wrong answers. */
  private long sequential(List<Call> mix, int n, Sample sample) {
    long wrong = 0;
    for (int k = 0; k < n; k++) {
      Call c = mix.get(k % mix.size());
      long s = System.nanoTime();
      int status = send(c.request).statusCode();
      long nanos = System.nanoTime() - s;
      if (status != c.expected) {
        wrong++;
      }
      if (sample != null) {
        sample.add(c, nanos);
      }
    }
    return wrong;
  }

  private String grantsPath(String name) {
    return "/api/v1/namespaces/" + ns + "/instances/trino/" + name + "/grants";
  }

  private HttpRequest get(String path, String token) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).GET();
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return b.build();
  }

  private HttpResponse<String> send(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  // ---------------------------------------------------------------- Kafka: instance events as engines-service sends them

  private KafkaProducer<String, byte[]> producer() {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, opts.getOrDefault("kafka", "127.0.0.1:59092"));
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(p);
  }

  /** CloudEvents binary mode, as common's CloudEventHeaders writes it: ce_* headers, key = subject. */
  private ProducerRecord<String, byte[]> instanceEvent(String type, String name) {
    String subject = ns + "/trino/" + name;
    String data = Stats.f("{\"namespace\":\"%s\",\"kind\":\"trino\",\"name\":\"%s\",\"phase\":\"Pending\","
        + "\"createdBy\":\"bench-deployer\"}", ns, name);
    RecordHeaders h = new RecordHeaders();
    h.add("ce_specversion", bytes("1.0"));
    h.add("ce_id", bytes(UUID.randomUUID().toString()));
    h.add("ce_source", bytes("/lakehouse/benchmarks"));
    h.add("ce_type", bytes(type));
    h.add("ce_subject", bytes(subject));
    h.add("ce_time", bytes(Instant.now().toString()));
    h.add("content-type", bytes("application/json"));
    return new ProducerRecord<>("lakehouse.instances", null, subject, bytes(data), h);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------- PostgreSQL statistics (psql of the local cluster)

  private final Map<String, Long> noScans = Map.of();

  /** seq_scan + idx_scan of access.grants and access.instances, or empty when psql is not at hand. */
  private Map<String, Long> tableScans() {
    String psql = psql();
    if (psql == null) {
      return noScans;
    }
    String out = Proc.run(List.of("bash", "-c", "PGPASSWORD=postgres '" + psql + "' -h 127.0.0.1 -p "
        + opts.getOrDefault("pg-port", "55432") + " -U postgres -d lakehouse -Atc \"SELECT relname,"
        + " coalesce(seq_scan,0) + coalesce(idx_scan,0) FROM pg_stat_user_tables WHERE schemaname = 'access'"
        + " AND relname IN ('grants','instances') ORDER BY relname\" 2>/dev/null"));
    Map<String, Long> scans = new ConcurrentHashMap<>();
    for (String line : out.trim().split("\n")) {
      String[] f = line.split("\\|");
      if (f.length == 2 && f[1].trim().matches("\\d+")) {
        scans.put(f[0].trim(), Long.parseLong(f[1].trim()));
      }
    }
    return scans;
  }

  private static String scanDelta(Map<String, Long> before, Map<String, Long> after) {
    if (before.isEmpty() || after.isEmpty()) {
      return "not measured (no psql next to the local PostgreSQL)";
    }
    StringBuilder s = new StringBuilder();
    after.forEach((table, n) -> s.append(s.length() == 0 ? "" : ", ").append(table).append(" **")
        .append(n - before.getOrDefault(table, 0L)).append("**"));
    return s.toString();
  }

  static String psql() {
    try (var procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
      for (Path p : procs) {
        String[] argv = Proc.read(p.resolve("cmdline")).split("\0");
        if (argv.length > 0 && argv[0].endsWith("/postgres")) {
          Path candidate = Path.of(argv[0]).resolveSibling("psql");
          if (Files.isExecutable(candidate)) {
            return candidate.toString();
          }
        }
      }
    } catch (IOException e) {
      return null;
    }
    return null;
  }

  // ---------------------------------------------------------------- environment

  private String environment(String load, long pid) {
    String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
    String cmd = Proc.cmdline(pid);
    String heap = cmd.replaceAll(".*(-Xmx\\S+).*", "$1");
    return "## Latest authz run: " + date + "\n\n"
        + "| | |\n|---|---|\n"
        + "| machine | " + Runtime.getRuntime().availableProcessors() + " cores (nproc), " + Proc.memTotal()
        + " memory, " + Proc.cpuModel() + " |\n"
        + "| load average at start | " + load + " (1, 5, 15 min; other builds share the machine) |\n"
        + "| Java | " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
        + " (same `java` for the service and the benchmark) |\n"
        + "| access-service | fast-jar, " + heap + ", local issuer tokens (RS256, checked by quarkus-oidc on every"
        + " call); client java.net.http HTTP/1.1 keep-alive on the same machine |\n"
        + "| code | " + opts.getOrDefault("commit", "?") + " |\n"
        + "| run id | `" + run + "` (namespace `" + ns + "`) |\n";
  }
}
