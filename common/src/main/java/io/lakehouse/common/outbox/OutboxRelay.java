package io.lakehouse.common.outbox;

import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.events.CloudEventHeaders;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.metrics.LakehouseMetrics;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.jboss.logging.Logger;

/**
 * Publishes outbox rows to Kafka in commit order, at least once. Woken by the outbox table's NOTIFY
 * trigger at commit time; the wait times out after {@code sweep-interval} as a slow fallback (and
 * as the retry pace while Kafka is down: the rows wait in the outbox).
 * A transaction-scoped advisory lock keeps a second replica from publishing the same rows
 * concurrently (which could reorder a subject).
 *
 * <p>A row Kafka can never take (a type this version does not know, a record larger than the broker
 * accepts) is parked ({@code parked_at}, {@code parked_reason}) instead of failing the pass, which
 * would hold back every later event of the service; readiness reports the parked count. Any other
 * failure (Kafka down, a timeout) fails the pass and the rows wait.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final int MAX_BACKOFF_MS = 5_000;
    /** The column of {@link #lockedSelect} that says whether the pass holds the relay's lock. */
    private static final int HELD = 10;

    private final DataSource dataSource;
    private final Pool pool;
    private final ServiceSettings settings;
    private final KafkaProducerFactory producers;
    private final String topicPrefix;
    private final AtomicLong backlog = new AtomicLong();
    private final AtomicLong parked = new AtomicLong();
    private volatile String lastError;
    private volatile boolean running;
    private long backoffMs = 100;
    /** Whether the next pass counts the parked rows (listener thread only). */
    private boolean recountParked = true;
    /** System.nanoTime() of the last pass's start (listener thread only). */
    private long lastPass = System.nanoTime() - TimeUnit.DAYS.toNanos(1);
    /** System.nanoTime() of the last purge (listener thread only). */
    private long lastPurge = System.nanoTime();
    private PgChannelListener listener;
    private Producer<String, byte[]> producer;

    OutboxRelay(DataSource dataSource, Pool pool, ServiceSettings settings, KafkaProducerFactory producers) {
        this.dataSource = dataSource;
        this.pool = pool;
        this.settings = settings;
        this.producers = producers;
        this.topicPrefix = settings.outbox().topicPrefix().orElse("");
    }

    void start(@Observes StartupEvent event) {
        if (!settings.outbox().relayEnabled()) {
            return;
        }
        producer = producers.create();
        running = true;
        String table = settings.schema() + ".outbox";
        LakehouseMetrics.gauge(LakehouseMetrics.OUTBOX_BACKLOG, "outbox rows not yet published", null, backlog::get);
        LakehouseMetrics.gauge(LakehouseMetrics.OUTBOX_PARKED, "outbox rows Kafka can never take", null, parked::get);
        // Read at each scrape, not at each pass: a relay that cannot publish (Kafka down) makes no passes.
        LakehouseMetrics.gauge(LakehouseMetrics.OUTBOX_OLDEST_AGE, "age of the oldest unpublished outbox row", "seconds",
                () -> seconds("SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(event_time)), 0) FROM " + table
                        + " WHERE published_at IS NULL AND parked_at IS NULL"));
        listener = new PgChannelListener(pool, channel(), settings.outbox().sweepInterval(), this::drainOrBackOff)
                .start();
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        if (listener != null) {
            listener.close();
        }
        if (producer != null) {
            producer.close(java.time.Duration.ofSeconds(5));
        }
    }

    /** Rows committed but not yet acknowledged by Kafka, as of the last pass. */
    public long backlog() {
        return backlog.get();
    }

    /** Rows parked because Kafka can never take them (see {@code outbox.parked_reason}), as of the last pass. */
    public long parked() {
        return parked.get();
    }

    /** Why the last pass failed, or null when it succeeded. */
    public String lastError() {
        return lastError;
    }

    /**
     * One wake of the listener: a NOTIFY (payloads), a reconnection (null) or the sweep (empty). The parked rows are
     * counted again on the latter two only, or when some are known: another replica may have parked one meanwhile.
     */
    private void drainOrBackOff(List<String> payloads) {
        recountParked |= payloads == null || payloads.isEmpty();
        try {
            awaitSpacing();
            drain();
            purgeIfDue();
            lastError = null;
            backoffMs = 100;
        } catch (Exception e) {
            lastError = e.getClass().getSimpleName() + ": " + e.getMessage();
            LOG.warnf("outbox relay pass failed, retrying in %d ms: %s", backoffMs, lastError);
            Pause.sleep(backoffMs);
            backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
        }
    }

    /** Waits until {@code pass-spacing} has passed since the last pass started, then counts this one as started. */
    private void awaitSpacing() {
        long wait = lastPass + settings.outbox().passSpacing().toNanos() - System.nanoTime();
        if (wait > 0) {
            Pause.sleep(TimeUnit.NANOSECONDS.toMillis(wait) + 1);
        }
        lastPass = System.nanoTime();
    }

    private void drain() throws Exception {
        int batch = settings.outbox().batchSize();
        while (running && publishBatch(batch) == batch) {
            // full batch: more rows may be waiting
        }
    }

    private int publishBatch(int batch) throws Exception {
        String table = settings.schema() + ".outbox";
        try (Connection tx = dataSource.getConnection()) {
            tx.setAutoCommit(false);
            try {
                int read = 0;
                List<Long> sent = new ArrayList<>();
                List<Future<?>> acks = new ArrayList<>();
                Map<Long, String> refused = new LinkedHashMap<>();
                try (PreparedStatement select = tx.prepareStatement(lockedSelect(table))) {
                    select.setString(1, channel());
                    select.setInt(2, batch);
                    try (ResultSet rs = select.executeQuery()) {
                        rs.next();
                        if (!rs.getBoolean(HELD)) {
                            countParked(tx, table);
                            tx.rollback();
                            return 0;
                        }
                        do {
                            long seq = rs.getLong(1);
                            if (rs.wasNull()) {
                                break; // the lock's row alone: nothing to publish
                            }
                            read++;
                            ProducerRecord<String, byte[]> record;
                            try {
                                record = record(rs, topicPrefix);
                            } catch (RuntimeException e) {
                                refused.put(seq, "not a valid event: " + e.getMessage());
                                continue;
                            }
                            sent.add(seq);
                            acks.add(producer.send(record));
                        } while (rs.next());
                    }
                }
                List<Long> published = new ArrayList<>();
                for (int i = 0; i < acks.size(); i++) {
                    try {
                        acks.get(i).get(settings.outbox().sendTimeout().toMillis(), TimeUnit.MILLISECONDS);
                        published.add(sent.get(i));
                    } catch (ExecutionException e) {
                        if (!neverAccepted(e.getCause())) {
                            throw e;
                        }
                        refused.put(sent.get(i), "refused by Kafka: " + e.getCause().getMessage());
                    }
                }
                RelayCrashHook.haltIfArmed(settings.outbox().haltAfterAckFile(), published.size());
                markPublished(tx, table, published);
                park(tx, table, refused);
                if (recountParked || !refused.isEmpty() || parked.get() > 0) {
                    countParked(tx, table);
                    recountParked = false;
                }
                tx.commit();
                backlog.set(read == batch ? batch : 0);
                return read;
            } catch (Exception e) {
                tx.rollback();
                backlog.set(countBacklog(table));
                throw e;
            }
        }
    }

    /** Errors that the same record gets on every retry: the row is parked instead of retried. */
    private static boolean neverAccepted(Throwable cause) {
        return cause instanceof RecordTooLargeException || cause instanceof InvalidTopicException
                || cause instanceof InvalidRecordException;
    }

    private void park(Connection tx, String table, Map<Long, String> parked) throws SQLException {
        if (parked.isEmpty()) {
            return;
        }
        try (PreparedStatement update = tx.prepareStatement(
                "UPDATE " + table + " SET parked_at = now(), parked_reason = ? WHERE seq = ?")) {
            for (Map.Entry<Long, String> row : parked.entrySet()) {
                // The reason names the row and the error, never its data.
                LOG.errorf("outbox row %d parked, the events after it flow on: %s", row.getKey(), row.getValue());
                update.setString(1, row.getValue());
                update.setLong(2, row.getKey());
                update.addBatch();
            }
            update.executeBatch();
        }
    }

    /** The stored row as the event it is; {@link CloudEventHeaders} alone knows the Kafka binding. */
    private static ProducerRecord<String, byte[]> record(ResultSet rs, String topicPrefix) throws SQLException {
        String typeName = rs.getString(5);
        EventType type = EventType.fromCloudEventType(typeName)
                .orElseThrow(() -> new IllegalStateException("unknown event type in the outbox: " + typeName));
        LakehouseEvent event = new LakehouseEvent(UUID.fromString(rs.getString(2)), rs.getString(6), type,
                rs.getString(4), rs.getTimestamp(7).toInstant(), CloudEventHeaders.parseData(rs.getString(8)));
        return CloudEventHeaders.record(topicPrefix, event, rs.getString(9));
    }

    /**
     * The pass's advisory lock and its batch in one round trip (two before: each pass's first step waited for both,
     * and with it every event's latency). One row whose last column, {@code held}, is false when another replica holds
     * the lock; one row of nulls but {@code held} when nothing waits; otherwise the batch in commit order. The lock
     * is taken first (a volatile CTE is evaluated once, never inlined), the rows read only when it is held.
     */
    private static String lockedSelect(String table) {
        return "WITH lock AS (SELECT pg_try_advisory_xact_lock(hashtext(?)) AS held)"
                + " SELECT o.seq, o.event_id, o.topic, o.subject, o.type, o.source, o.event_time, o.data::text,"
                + " o.traceparent, lock.held FROM lock LEFT JOIN LATERAL (SELECT * FROM " + table
                + " WHERE lock.held AND published_at IS NULL AND parked_at IS NULL ORDER BY seq LIMIT ?) o ON true ORDER BY o.seq";
    }

    private void markPublished(Connection tx, String table, List<Long> seqs) throws SQLException {
        if (seqs.isEmpty()) {
            return;
        }
        try (PreparedStatement update =
                tx.prepareStatement("UPDATE " + table + " SET published_at = now() WHERE seq = ANY(?)")) {
            update.setArray(1, tx.createArrayOf("bigint", seqs.toArray()));
            update.executeUpdate();
        }
    }

    /**
     * Deletes the rows published longer than {@code retention} ago, at most once per {@code sweep-interval} and
     * outside the publishing transaction: the DELETE scans the table (no index on published_at), which each pass
     * paid on the hot path before.
     */
    private void purgeIfDue() {
        long now = System.nanoTime();
        if (now - lastPurge < settings.outbox().sweepInterval().toNanos()) {
            return;
        }
        lastPurge = now;
        try (Connection c = dataSource.getConnection();
                PreparedStatement purge = c.prepareStatement("DELETE FROM " + settings.schema()
                        + ".outbox WHERE published_at < now() - ?::interval")) {
            purge.setString(1, settings.outbox().retention().toSeconds() + " seconds");
            purge.executeUpdate();
        } catch (SQLException e) {
            LOG.warnf("purging the published outbox rows failed, trying again later: %s", e.getMessage());
        }
    }

    /** The parked rows, read in the pass's own transaction (a transaction of its own doubled each pass's). */
    private void countParked(Connection tx, String table) throws SQLException {
        try (Statement st = tx.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table + " WHERE parked_at IS NOT NULL")) {
            rs.next();
            parked.set(rs.getLong(1));
        }
    }

    private long countBacklog(String table) {
        return count("SELECT count(*) FROM " + table + " WHERE published_at IS NULL AND parked_at IS NULL");
    }

    private long count(String query) {
        try (Connection c = dataSource.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            return -1;
        }
    }

    private double seconds(String query) {
        try (Connection c = dataSource.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(query)) {
            rs.next();
            return rs.getDouble(1);
        } catch (SQLException e) {
            return Double.NaN;
        }
    }

    private String channel() {
        return "outbox_" + settings.schema();
    }
}
