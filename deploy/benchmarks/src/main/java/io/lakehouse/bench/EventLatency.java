package io.lakehouse.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * P9, event latency from the producer's commit to the consumer's processing, read from the database afterwards: every
 * service writes its events to its own {@code outbox} (event_time: taken when the event is made, just before the
 * producing transaction commits) and records each event it consumes in its own {@code inbox} (processed_at: now() of
 * the consuming transaction, the first statement of that transaction). Joined on event_id, processed_at - event_time is
 * the path outbox → relay → Kafka → consumer, a little more than commit → consumer start, a little less than commit →
 * consumer done (the consuming transaction's own few statements). Consumers that keep no inbox row for an event
 * (projections that need no deduplication) are not seen here.
 */
final class EventLatency {

  private final AllRun r;

  EventLatency(AllRun r) {
    this.r = r;
  }

  /** One row per consuming service for the events made between the two instants (epoch ms). */
  void measure(long fromMs, long toMs) {
    List<String> outboxes = schemasWith("outbox");
    List<String> inboxes = schemasWith("inbox");
    if (outboxes.isEmpty() || inboxes.isEmpty()) {
      r.row("P9", "all", "event latency, outbox event_time → inbox processed_at", "p50 ≤ 10 ms, p99 ≤ 50 ms",
          "– (no outbox/inbox tables found: " + r.sql.query("SELECT 1") + ")", null, true);
      return;
    }
    String o = outboxes.stream().map(s -> "SELECT event_id, event_time, '" + s + "' AS producer FROM " + s + ".outbox")
        .collect(Collectors.joining(" UNION ALL "));
    String i = inboxes.stream().map(s -> "SELECT event_id, processed_at, '" + s + "' AS consumer FROM " + s + ".inbox")
        .collect(Collectors.joining(" UNION ALL "));
    String ms = "extract(epoch FROM i.processed_at - o.event_time) * 1000";
    String out = r.sql.query("WITH o AS (" + o + "), i AS (" + i + ") SELECT i.consumer, count(*),"
        + " round((percentile_cont(0.5) WITHIN GROUP (ORDER BY " + ms + "))::numeric, 1),"
        + " round((percentile_cont(0.99) WITHIN GROUP (ORDER BY " + ms + "))::numeric, 1),"
        + " round(max(" + ms + ")::numeric, 1), string_agg(DISTINCT o.producer, ' ')"
        + " FROM i JOIN o USING (event_id) WHERE o.event_time >= to_timestamp(" + fromMs + " / 1000.0)"
        + " AND o.event_time < to_timestamp(" + toMs + " / 1000.0) GROUP BY i.consumer ORDER BY i.consumer");
    if (out.startsWith("?") || out.contains("ERROR")) {
      r.notes.add("P9: the query failed: " + out);
      return;
    }
    for (String line : out.split("\n")) {
      String[] f = line.split("\\|");
      if (f.length < 6) {
        continue;
      }
      double p50 = Double.parseDouble(f[2]);
      double p99 = Double.parseDouble(f[3]);
      r.row("P9", f[0], Stats.f("event latency, %s events of %s: outbox event_time → inbox processed_at", f[1], f[5]),
          "p50 ≤ 10 ms, p99 ≤ 50 ms", Stats.f("p50 %s ms, p99 %s ms (max %s)", f[2], f[3], f[4]),
          p50 <= 10 && p99 <= 50, true);
    }
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
