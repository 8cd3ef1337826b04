package io.lakehouse.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What a service costs that does not depend on the machine's noise, read from outside it: the local API's request
 * counts by verb of the service's own client (`lakehouse up` gives each service the User-Agent
 * {@code <schema>-service}), the events it wrote to its outbox and the SQL work on its schema (PostgreSQL's table
 * statistics: outbox rows inserted; scans + rows written), and its live heap ({@link Proc#heapUsedAfterGcKb}).
 * {@link #snapshot} twice and {@link Snapshot#perInstance} gives the cost per instance. Other services working at the
 * same time do not count.
 */
final class Costs {

  /** Agents whose calls are not the services': the simulator (local-kit) and the benchmarks. */
  private static final List<String> NOT_SERVICES = List.of("lakehouse-local-kit", BenchCli.AGENT);

  private final String kube;
  private final int pgPort;
  private final String schema;
  private final long pid;
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();

  Costs(String kube, int pgPort, String schema, long pid) {
    this.kube = kube;
    this.pgPort = pgPort;
    this.schema = schema;
    this.pid = pid;
  }

  /** Counters at one moment: "api.<verb>", "events", "sql", "heap_kb" (-1 where not measurable). */
  record Snapshot(Map<String, Double> values) {

    /** (this - before) / n, per counter; "heap_kb" becomes "heap_bytes". */
    Map<String, Double> perInstance(Snapshot before, int n) {
      Map<String, Double> out = new TreeMap<>();
      values.forEach((key, value) -> {
        double delta = (value - before.values.getOrDefault(key, 0.0)) / n;
        out.put(key.equals("heap_kb") ? "heap_bytes" : key, key.equals("heap_kb") ? delta * 1024 : delta);
      });
      return out;
    }
  }

  Snapshot snapshot() {
    Map<String, Double> values = new TreeMap<>();
    for (String verb : List.of("get", "list", "watch", "create", "update", "patch", "delete", "deletecollection")) {
      values.put("api." + verb, 0.0);
    }
    serviceCalls().forEach((verb, n) -> values.put("api." + verb, n));
    long[] tables = tableStatistics();
    values.put("events", (double) tables[0]);
    values.put("sql", (double) tables[1]);
    values.put("heap_kb", (double) Proc.heapUsedAfterGcKb(pid));
    return new Snapshot(values);
  }

  /** The local API's counts by verb of this service's client. */
  Map<String, Double> serviceCalls() {
    String agent = schema + "-service";
    return calls(kube, agent::equals);
  }

  /** The local API's counts by verb, summed over the clients that are neither the simulator nor a benchmark. */
  static Map<String, Double> allServicesCalls(String kube) {
    return calls(kube, agent -> !NOT_SERVICES.contains(agent));
  }

  private static Map<String, Double> calls(String kube, Predicate<String> agents) {
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(kube + "/_lakehouse/requests")).build(),
          HttpResponse.BodyHandlers.ofString());
      Map<String, Double> calls = new TreeMap<>();
      JSON.readTree(r.body()).fields().forEachRemaining(agent -> {
        if (agents.test(agent.getKey())) {
          agent.getValue().fields().forEachRemaining(verb ->
              calls.merge(verb.getKey(), verb.getValue().asDouble(), Double::sum));
        }
      });
      return calls;
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the local API's request counts", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /**
   * From the service's schema's pg_stat_user_tables, in one query: the rows inserted into its outbox (the events it
   * published) and its SQL work (table scans + rows inserted, updated, deleted); {-1, -1} without psql next to the
   * local PostgreSQL. Backends publish these statistics when idle, within ~10 s.
   */
  private long[] tableStatistics() {
    String psql = AuthzBench.psql();
    if (psql == null) {
      return new long[] {-1, -1};
    }
    String out = Proc.run(List.of("bash", "-c", "PGPASSWORD=postgres '" + psql + "' -h 127.0.0.1 -p " + pgPort
        + " -U postgres -d lakehouse -Atc \"SELECT coalesce(sum(n_tup_ins) FILTER (WHERE relname = 'outbox'), 0),"
        + " coalesce(sum(coalesce(seq_scan,0) + coalesce(idx_scan,0) + n_tup_ins + n_tup_upd + n_tup_del), 0)"
        + " FROM pg_stat_user_tables WHERE schemaname = '" + schema + "'\" 2>/dev/null")).trim();
    return out.matches("\\d+\\|\\d+") ? Arrays.stream(out.split("\\|")).mapToLong(Long::parseLong).toArray()
        : new long[] {-1, -1};
  }

}
