package io.lakehouse.bench;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * P10, catalog-service's outbox after a Kafka outage: Kafka stopped with the local stack's own command,
 * {@code --p10-changes} catalogs (300) created and converged while it is down (their events wait in the outbox),
 * Kafka started again, then the backlog drained. The drain rate is the backlog's size over the time from its first
 * event's send, or from the broker's return when that is later ({@link BrokerReturn}), to the last relay pass's commit
 * (the relay's own pace once Kafka serves the topics); the time from Kafka
 * back to backlog 0 as this benchmark polled it (reconnect and topic checks included) is given next to it. The bar's
 * outage is 5 minutes: {@code --p10-outage-seconds} holds Kafka down at least that long.
 */
final class OutboxDrain {

  private final AllRun r;
  private final LocalStack stack;

  OutboxDrain(AllRun r, LocalStack stack) {
    this.r = r;
    this.stack = stack;
  }

  void measure(int readyTimeoutSeconds) throws Exception {
    int changes = r.opt("p10-changes", 300);
    long seqBefore = r.sql.number("SELECT coalesce(max(seq), 0) FROM catalog.outbox");
    long down = System.nanoTime();
    long downAtMs = System.currentTimeMillis();
    BenchCli.log("all", "P10: Kafka down, %d catalogs", changes);
    stack.kafkaDown();
    BrokerReturn broker;
    try {
      Loops.parallel(changes, r.opt("sat-threads", 8), i -> r.createCatalog());
      r.awaitCatalogsReady(readyTimeoutSeconds);
      Loops.sleepUntil(down + TimeUnit.SECONDS.toNanos(r.opt("p10-outage-seconds", 0)));
    } finally {
      broker = BrokerReturn.watch(r.kafka);
      stack.kafkaUp();
    }
    long backlog = backlog();
    BenchCli.log("all", "P10: Kafka up again, backlog %d events", backlog);
    long upAt = System.nanoTime();
    long deadline = upAt + TimeUnit.SECONDS.toNanos(r.opt("p10-timeout-seconds", 300));
    while (backlog() > 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the catalog outbox did not drain within the P10 timeout: " + backlog()
            + " events left");
      }
      Thread.sleep(50);
    }
    double toZero = (System.nanoTime() - upAt) / 1e9;
    // The window: from the first drained event's send to the last relay pass's commit. The relay's transaction (its
    // published_at mark) starts before the producer has waited for Kafka's metadata, which is Kafka's recovery, not
    // the relay's pace; the producer's record timestamp is taken after that wait. The commit time (the local
    // PostgreSQL tracks commit timestamps) ends it: the backlog is often gone before kafkaUp() returns (it waits for
    // the topics), so the time the loop above saw it at 0 is not the drain's.
    String out = r.sql.query("SELECT count(*), count(DISTINCT published_at),"
        + " round(extract(epoch FROM max(pg_xact_commit_timestamp(xmin))) * 1000), string_agg(DISTINCT topic, ','),"
        + " string_agg(event_id::text, ',') FROM catalog.outbox WHERE seq > " + seqBefore).trim();
    String[] f = out.split("\\|");
    if (f.length < 5 || !f[0].matches("\\d+") || !f[2].matches("\\d+")) {
      throw new IllegalStateException("cannot read the drained outbox rows and their commit times: " + out);
    }
    long events = Long.parseLong(f[0]);
    long firstSend = ProducerTimes.earliest(r.kafka, List.of(f[3].split(",")), Set.of(f[4].split(",")), downAtMs)
        .orElseThrow(() -> new IllegalStateException("none of the drained events is on " + f[3]));
    // Records handed to the producer during the outage waited in it for the broker and keep their earlier timestamps.
    long start = Math.max(firstSend, broker.acceptedAtMs().orElse(firstSend));
    double window = Math.max(0.001, (Long.parseLong(f[2]) - start) / 1000.0);
    double rate = events / window;
    r.row("P10", "catalog", Stats.f("outbox drain after Kafka down %.0f s: %d events of %d catalogs", (upAt - down)
        / 1e9, events, changes), "≥ 2,000 events/s", Stats.f("%.0f events/s (%d events in %.2f s from the first"
        + " one's send (or the broker's return, when later: first send %.2f s before it) to the last relay pass's"
        + " commit, in %s passes; backlog at restart %d; Kafka back → backlog 0 seen: %.1f s)", rate, events, window,
        (start - firstSend) / 1000.0, f[1], backlog, toZero),
        rate >= 2000, true);
  }

  private long backlog() {
    long n = r.sql.number("SELECT count(*) FROM catalog.outbox WHERE published_at IS NULL");
    if (n < 0) {
      throw new IllegalStateException("cannot read catalog.outbox: " + r.sql.query("SELECT 1"));
    }
    return n;
  }
}
