package io.lakehouse.bench;

import java.util.concurrent.TimeUnit;

/**
 * P10, catalog-service's outbox after a Kafka outage: Kafka stopped with the local stack's own command,
 * {@code --p10-changes} catalogs (300) created and converged while it is down (their events wait in the outbox),
 * Kafka started again, then the backlog drained. The drain rate is the backlog's size over the spread of its rows'
 * published_at (the relay's own pace once it publishes again); the time from Kafka back to backlog 0 (reconnect
 * included) is given next to it. The bar's outage is 5 minutes: {@code --p10-outage-seconds} holds Kafka down at
 * least that long.
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
    BenchCli.log("all", "P10: Kafka down, %d catalogs", changes);
    stack.kafkaDown();
    try {
      Loops.parallel(changes, r.opt("sat-threads", 8), i -> r.createCatalog());
      r.awaitCatalogsReady(readyTimeoutSeconds);
      Loops.sleepUntil(down + TimeUnit.SECONDS.toNanos(r.opt("p10-outage-seconds", 0)));
    } finally {
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
    long drainedAtMs = System.currentTimeMillis();
    double toZero = (System.nanoTime() - upAt) / 1e9;
    // The relay marks a pass's rows with its transaction's now(): the distinct marks are the passes (transactions).
    String out = r.sql.query("SELECT count(*), round(extract(epoch FROM min(published_at)) * 1000),"
        + " count(DISTINCT published_at) FROM catalog.outbox WHERE seq > " + seqBefore).trim();
    String[] f = out.split("\\|");
    if (f.length < 3 || !f[0].matches("\\d+") || !f[1].matches("\\d+")) {
      throw new IllegalStateException("cannot read the drained outbox rows: " + out);
    }
    long events = Long.parseLong(f[0]);
    // The relay marks a whole batch with its transaction's now(): the spread of published_at says little, so the
    // window runs from the first batch's mark to the poll that saw the backlog at 0 (≤ 50 ms late).
    double window = Math.max(0.001, (drainedAtMs - Long.parseLong(f[1])) / 1000.0);
    double rate = events / window;
    r.row("P10", "catalog", Stats.f("outbox drain after Kafka down %.0f s: %d events of %d catalogs", (upAt - down)
        / 1e9, events, changes), "≥ 2,000 events/s", Stats.f("%.0f events/s (%d events in %.2f s from the first"
        + " publish, in %s relay passes; backlog at restart %d; Kafka back → backlog 0: %.1f s)", rate, events, window,
        f[2], backlog, toZero),
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
