package io.lakehouse.bench;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * P9, event latency from the producer's commit to the consumer's processing, read from the database afterwards: every
 * service writes its events to its own {@code outbox} (event_time: taken when the event is made, just before the
 * producing transaction commits) and records each event it consumes in its own {@code inbox}, in the consuming
 * transaction. "Consumer done" is that transaction's commit ({@code pg_xact_commit_timestamp} of the inbox row, when the
 * server tracks commit timestamps, as deploy/local's does), else its start ({@code processed_at}, a little early).
 * Joined on event_id, done - event_time is the path producer commit → relay → Kafka → consumer's commit, plus the
 * producing transaction's own last statements. Each row also splits it at the start of the relay's pass that sent the
 * event (the outbox row's {@code published_at}, set in that pass's transaction): before it, the producing service's
 * relay; after it, Kafka and the consumer. Consumers that keep no inbox row for an event (projections that need
 * no deduplication) are not seen here.
 *
 * <p>Two measures: the idle path ({@link #measureIdle}: one change at a time at a low rate, the bar's P9; one row per
 * producer → consumer pair) and the burst ({@link #measureBurst}: every event of the run's creation bursts, where a
 * consumer's backlog adds to each event's time; one row per consumer).
 */
final class EventLatency {

  private static final String TARGET = "p50 ≤ 10 ms, p99 ≤ 50 ms";

  private final AllRun r;

  EventLatency(AllRun r) {
    this.r = r;
  }

  /**
   * The idle path: {@code --p9-changes} (40) changes, one every {@code --p9-gap-ms} (250 ms), alternately a catalog
   * create (catalog → lakehouse.instances → access, notebooks, …; access's deployer grant → engines, notebooks) and a
   * membership set in access-service (access → lakehouse.access → every service); then one row per producer → consumer
   * pair for the events made in that window.
   */
  void measureIdle() throws InterruptedException {
    int changes = r.opt("p9-changes", 40);
    int gapMs = r.opt("p9-gap-ms", 250);
    boolean access = r.apis.containsKey("access");
    String ns = r.namespaces.get(0);
    BenchCli.log("all", "P9 idle: %d changes, one every %d ms", changes, gapMs);
    long fromMs = System.currentTimeMillis();
    long next = System.nanoTime();
    for (int i = 0; i < changes; i++) {
      Loops.sleepUntil(next);
      next += TimeUnit.MILLISECONDS.toNanos(gapMs);
      if (access && i % 2 == 1) {
        HttpResponse<String> put = r.api("access").put("/api/v1/namespaces/" + ns + "/members/user:p9-user-" + i,
            "{\"role\":\"viewer\"}");
        if (put.statusCode() != 200 && put.statusCode() != 201) {
          r.notes.add("P9: PUT member " + i + ": " + put.statusCode() + " " + put.body());
        }
      } else {
        r.createCatalog();
      }
    }
    long toMs = System.currentTimeMillis() + gapMs;
    // The last changes' events (and the grant events they cause) need a moment to reach every consumer.
    Thread.sleep(5_000);
    rows(Stats.f("idle, %d changes 1 every %d ms", changes, gapMs), fromMs, toMs, true);
  }

  /** Every event made between the two instants (epoch ms), the creation bursts included: backlog plus latency. */
  void measureBurst(long fromMs, long toMs) {
    rows("burst, every event of the run's creations", fromMs, toMs, false);
  }

  /** One row per producer → consumer pair (one per consumer for the burst) for the events made in the window. */
  private void rows(String label, long fromMs, long toMs, boolean perPair) {
    List<String> outboxes = schemasWith("outbox");
    List<String> inboxes = schemasWith("inbox");
    if (outboxes.isEmpty() || inboxes.isEmpty()) {
      r.row("P9", "all", "event latency (" + label + ")", TARGET,
          "– (no outbox/inbox tables found: " + r.sql.query("SELECT 1") + ")", null, true);
      return;
    }
    String o = outboxes.stream().map(s -> "SELECT event_id, event_time, published_at, '" + s + "' AS producer FROM " + s
        + ".outbox")
        .collect(Collectors.joining(" UNION ALL "));
    boolean commits = "on".equals(r.sql.query("SHOW track_commit_timestamp").trim());
    String done = commits ? "coalesce(pg_xact_commit_timestamp(xmin), processed_at)" : "processed_at";
    String i = inboxes.stream().map(s -> "SELECT event_id, " + done + " AS done_at, '" + s + "' AS consumer FROM " + s
        + ".inbox").collect(Collectors.joining(" UNION ALL "));
    String ms = "extract(epoch FROM i.done_at - o.event_time) * 1000";
    String relayMs = "extract(epoch FROM o.published_at - o.event_time) * 1000";
    String end = commits ? "inbox commit" : "inbox processed_at";
    String producer = perPair ? "o.producer" : "string_agg(DISTINCT o.producer, ' ')";
    String out = r.sql.query("WITH o AS (" + o + "), i AS (" + i + ") SELECT i.consumer, count(*),"
        + " " + percentile(0.5, ms) + ", " + percentile(0.99, ms) + ", round(max(" + ms + ")::numeric, 1), "
        + producer + ", " + percentile(0.5, relayMs) + ", " + percentile(0.99, relayMs)
        + " FROM i JOIN o USING (event_id) WHERE o.event_time >= to_timestamp(" + fromMs + " / 1000.0)"
        + " AND o.event_time < to_timestamp(" + toMs + " / 1000.0) GROUP BY i.consumer"
        + (perPair ? ", o.producer" : "") + " ORDER BY i.consumer");
    if (out.startsWith("?") || out.contains("ERROR")) {
      r.notes.add("P9: the query failed: " + out);
      return;
    }
    for (String line : out.split("\n")) {
      String[] f = line.split("\\|");
      if (f.length < 8) {
        continue;
      }
      double p50 = Double.parseDouble(f[2]);
      double p99 = Double.parseDouble(f[3]);
      String what = perPair
          ? Stats.f("event latency, %s: %s events %s → %s", label, f[1], f[5], f[0])
          : Stats.f("event latency, %s: %s events of %s", label, f[1], f[5]);
      r.row("P9", f[0], what + ", outbox event_time → " + end, TARGET,
          Stats.f("p50 %s ms, p99 %s ms (max %s; until the relay's pass: p50 %s, p99 %s ms)", f[2], f[3], f[4],
              f[6], f[7]), p50 <= 10 && p99 <= 50, true);
    }
  }

  /** SQL: the {@code q} percentile of the milliseconds {@code ms}, to one decimal. */
  private static String percentile(double q, String ms) {
    return "round((percentile_cont(" + q + ") WITHIN GROUP (ORDER BY " + ms + "))::numeric, 1)";
  }

  private List<String> schemasWith(String table) {
    String out = r.sql.query("SELECT table_schema FROM information_schema.tables WHERE table_name = '" + table
        + "' ORDER BY 1");
    List<String> schemas = new ArrayList<>();
    for (String s : out.split("\n")) {
      if (s.matches("[a-z_]+")) {
        schemas.add(s);
      }
    }
    return schemas;
  }
}
