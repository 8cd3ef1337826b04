package io.lakehouse.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * What a service costs that does not depend on the machine's noise, read from outside it: the local API's request
 * counts by verb (all clients but the simulator and the benchmarks: the services), the events on the suite's Kafka
 * topics (end offsets), the SQL work on the service's schema (PostgreSQL's table statistics: scans + rows written),
 * and the service's heap after a full GC. {@link #snapshot} twice and {@link Snapshot#perInstance} gives the cost per
 * instance.
 */
final class Costs {

  /** Agents whose calls are not the services': the simulator (local-kit) and the benchmarks. */
  private static final List<String> NOT_SERVICES = List.of("lakehouse-local-kit", BenchCli.AGENT);

  private final String kube;
  private final String kafka;
  private final int pgPort;
  private final String schema;
  private final long pid;
  private final HttpClient http = HttpClient.newHttpClient();
  private final ObjectMapper json = new ObjectMapper();

  Costs(String kube, String kafka, int pgPort, String schema, long pid) {
    this.kube = kube;
    this.kafka = kafka;
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
    values.put("events", (double) eventCount());
    values.put("sql", (double) sqlWork());
    values.put("heap_kb", (double) Proc.heapUsedAfterGcKb(pid));
    return new Snapshot(values);
  }

  /** The local API's counts by verb, summed over the clients that are neither the simulator nor a benchmark. */
  Map<String, Double> serviceCalls() {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(kube + "/_lakehouse/requests")).build(),
          HttpResponse.BodyHandlers.ofString());
      JsonNode agents = json.readTree(r.body());
      Map<String, Double> calls = new TreeMap<>();
      agents.fields().forEachRemaining(agent -> {
        if (!NOT_SERVICES.contains(agent.getKey())) {
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

  /** The sum of the end offsets of every {@code lakehouse.*} topic: the events published so far. */
  private long eventCount() {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
    try (Admin admin = Admin.create(p)) {
      var topics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
          .filter(t -> t.startsWith("lakehouse.")).toList();
      Map<TopicPartition, OffsetSpec> latest = admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS)
          .values().stream().flatMap(d -> d.partitions().stream().map(pi -> new TopicPartition(d.name(), pi.partition())))
          .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
      return admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
          .mapToLong(info -> info.offset()).sum();
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the Kafka end offsets", e);
    }
  }

  /**
   * Table scans plus rows inserted, updated and deleted in the service's schema (pg_stat_user_tables): the SQL work,
   * -1 without psql next to the local PostgreSQL. Backends publish these statistics when idle, within ~10 s.
   */
  private long sqlWork() {
    String psql = AuthzBench.psql();
    if (psql == null) {
      return -1;
    }
    String out = Proc.run(List.of("bash", "-c", "PGPASSWORD=postgres '" + psql + "' -h 127.0.0.1 -p " + pgPort
        + " -U postgres -d lakehouse -Atc \"SELECT coalesce(sum(coalesce(seq_scan,0) + coalesce(idx_scan,0)"
        + " + n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables WHERE schemaname = '" + schema
        + "'\" 2>/dev/null")).trim();
    return out.matches("\\d+") ? Long.parseLong(out) : -1;
  }
}
