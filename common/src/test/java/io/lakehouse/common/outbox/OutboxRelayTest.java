package io.lakehouse.common.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.TestServers;
import io.lakehouse.common.testing.TestTopics;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The relay against the real PostgreSQL and Kafka of the test command (the catalog role's schema, migrated with
 * db/common, as {@code LeaderLockTest} does): what reaches the topic, when, in which order, and what stays in the table.
 */
class OutboxRelayTest {

    private static final String TOPIC = EventType.MEMBER_SET.topic().topicName();

    private OutboxRelay relay;

    private static DataSource dataSource() {
        return TestServers.schema("catalog");
    }

    @BeforeAll
    static void schema() throws SQLException {
        TestServers.requireReachable();
        Flyway.configure().dataSource(dataSource()).schemas("catalog").locations("classpath:db/common")
                .outOfOrder(true).validateOnMigrate(false).load().migrate();
        // Rows another module's tests left unpublished are not this test's: set aside.
        try (Connection c = dataSource().getConnection()) {
            c.createStatement().executeUpdate("UPDATE outbox SET published_at = now() WHERE published_at IS NULL");
        }
    }

    @AfterEach
    void stop() {
        if (relay != null) {
            relay.stop(null);
        }
    }

    @Test
    void aCommittedRowIsPublishedOnItsNotifyWithoutWaitingForTheSweep() throws Exception {
        start(settings(Duration.ofHours(1), Duration.ofHours(1), 500));
        String ns = "relay-" + UUID.randomUUID();
        try (EventReader reader = new EventReader(TOPIC)) {
            // Once a first row is out, the relay listens (it LISTENs before its first pass).
            UUID first = insert(ns + "-first", 1).get(0);
            await().atMost(Duration.ofSeconds(10)).until(() -> publishedAt(first).isPresent());
            UUID id = insert(ns, 1).get(0);
            // The sweep comes once an hour: only the commit's NOTIFY can have woken the relay.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(reader.events(ns + "/"))
                    .extracting(LakehouseEvent::id).containsExactly(id));
            assertThat(publishedAt(id)).isPresent();
        }
    }

    @Test
    void aCommitAfterAQuietMomentGoesOutAtOnceAndAStreamOfCommitsInPassesSpacedBySetting() throws Exception {
        Duration spacing = Duration.ofMillis(300);
        start(settings(Duration.ofHours(1), Duration.ofHours(1), 500, spacing));
        String ns = "relay-" + UUID.randomUUID();
        UUID first = insert(ns + "-first", 1).get(0);
        await().atMost(Duration.ofSeconds(10)).until(() -> publishedAt(first).isPresent());
        Thread.sleep(spacing.toMillis() + 100);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) { // twelve transactions over about 350 ms
            ids.addAll(insert(ns, 1));
            Thread.sleep(25);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> publishedAt(ids.get(ids.size() - 1)).isPresent());
        assertThat(Duration.between(eventTime(ids.get(0)), publishedAt(ids.get(0)).orElseThrow()))
                .as("the first commit after a quiet moment waits for no spacing").isLessThan(spacing);
        Set<Instant> passes = new HashSet<>();
        for (UUID id : ids) {
            passes.add(publishedAt(id).orElseThrow()); // now() of the pass's transaction: one value per pass
        }
        // One pass at the first commit, then at most one per spacing while the commits came (12 without the spacing).
        long committing = Duration.between(eventTime(ids.get(0)), eventTime(ids.get(ids.size() - 1))).toMillis();
        assertThat(passes).as("the passes that published twelve commits made over %d ms", committing)
                .hasSizeBetween(2, (int) (committing / spacing.toMillis()) + 2);
    }

    @Test
    void publishedRowsArePurgedAfterTheirRetentionEvenWhenNoMoreEventsCome() throws Exception {
        start(settings(Duration.ofMillis(200), Duration.ofSeconds(1), 500));
        UUID id = insert("relay-" + UUID.randomUUID(), 1).get(0);
        await().atMost(Duration.ofSeconds(10)).until(() -> publishedAt(id).isPresent());
        // No other row is written: the purge must not wait for the next publishing pass.
        await().atMost(Duration.ofSeconds(15)).until(() -> !exists(id));
    }

    @Test
    void aBacklogOfThousandsGoesOutOnceEachInTheOrderOfEachSubject() throws Exception {
        String ns = "relay-" + UUID.randomUUID();
        List<UUID> ids = insert(ns, 3_000); // committed before the relay runs: a backlog, as after a Kafka outage
        try (EventReader reader = new EventReader(TOPIC)) {
            start(settings(Duration.ofHours(1), Duration.ofHours(1), 1000));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(reader.events(ns + "/")).hasSize(ids.size()));
            for (int s = 0; s < 3; s++) {
                String subject = ns + "/" + s;
                List<UUID> expected = new ArrayList<>();
                for (int i = s; i < ids.size(); i += 3) {
                    expected.add(ids.get(i));
                }
                assertThat(reader.events(subject)).extracting(LakehouseEvent::id).containsExactlyElementsOf(expected);
            }
            assertThat(relay.backlog()).isZero();
        }
    }

    @Test
    void nothingIsPublishedWhileAnotherReplicaHoldsTheRelayLockThenEverythingIs() throws Exception {
        String ns = "relay-" + UUID.randomUUID();
        try (EventReader reader = new EventReader(TOPIC); Connection otherReplica = dataSource().getConnection()) {
            otherReplica.setAutoCommit(false);
            otherReplica.createStatement().execute("SELECT pg_advisory_xact_lock(hashtext('outbox_catalog'))");
            List<UUID> ids = insert(ns, 3);
            start(settings(Duration.ofMillis(200), Duration.ofHours(1), 500));
            // Five sweeps and the NOTIFY of the rows: each pass finds the lock taken and leaves the rows alone.
            Thread.sleep(1_000);
            assertThat(publishedAt(ids.get(0))).isEmpty();
            assertThat(reader.events(ns + "/")).isEmpty();
            otherReplica.commit();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(reader.events(ns + "/"))
                    .extracting(LakehouseEvent::id).containsExactlyInAnyOrderElementsOf(ids));
            assertThat(publishedAt(ids.get(2))).isPresent();
        }
    }

    private void start(ServiceSettings settings) {
        relay = new OutboxRelay(dataSource(), TestServers.reactivePool("catalog"), settings, new KafkaProducerFactory(TestServers.kafka()));
        relay.start(null);
    }

    /** {@code n} member.set rows in one transaction, over three subjects of the namespace (i % 3). */
    private static List<UUID> insert(String ns, int n) throws SQLException {
        List<UUID> ids = new ArrayList<>();
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO outbox (event_id, topic, subject, type,"
                    + " source, event_time, data) VALUES (?, ?, ?, ?, '/lakehouse/test', ?, ?::jsonb)")) {
                for (int i = 0; i < n; i++) {
                    UUID id = UUID.randomUUID();
                    ids.add(id);
                    insert.setObject(1, id);
                    insert.setString(2, TOPIC);
                    insert.setString(3, ns + "/" + (i % 3));
                    insert.setString(4, EventType.MEMBER_SET.cloudEventType());
                    insert.setTimestamp(5, Timestamp.from(Instant.now()));
                    // A valid membership: a consumer of a stack sharing the broker applies it, nothing dead-lettered.
                    insert.setString(6, "{\"namespace\":\"" + ns + "\",\"subjectType\":\"user\",\"subject\":\"u" + i
                            + "\",\"role\":\"viewer\"}");
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            c.commit();
        }
        return ids;
    }

    private static Optional<Instant> publishedAt(UUID id) throws SQLException {
        try (Connection c = dataSource().getConnection();
                PreparedStatement q = c.prepareStatement("SELECT published_at FROM outbox WHERE event_id = ?")) {
            q.setObject(1, id);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next() && rs.getTimestamp(1) != null ? Optional.of(rs.getTimestamp(1).toInstant())
                        : Optional.empty();
            }
        }
    }

    private static Instant eventTime(UUID id) throws SQLException {
        try (Connection c = dataSource().getConnection();
                PreparedStatement q = c.prepareStatement("SELECT event_time FROM outbox WHERE event_id = ?")) {
            q.setObject(1, id);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getTimestamp(1).toInstant();
            }
        }
    }

    private static boolean exists(UUID id) throws SQLException {
        try (Connection c = dataSource().getConnection();
                PreparedStatement q = c.prepareStatement("SELECT 1 FROM outbox WHERE event_id = ?")) {
            q.setObject(1, id);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static ServiceSettings settings(Duration sweep, Duration retention, int batch) {
        return settings(sweep, retention, batch, Duration.ofMillis(20));
    }

    private static ServiceSettings settings(Duration sweep, Duration retention, int batch, Duration spacing) {
        ServiceSettings.Outbox outbox = new ServiceSettings.Outbox() {
            @Override
            public boolean relayEnabled() {
                return true;
            }

            @Override
            public Duration sweepInterval() {
                return sweep;
            }

            @Override
            public int batchSize() {
                return batch;
            }

            @Override
            public Duration passSpacing() {
                return spacing;
            }

            @Override
            public Duration sendTimeout() {
                return Duration.ofSeconds(15);
            }

            @Override
            public Duration retention() {
                return retention;
            }

            @Override
            public Optional<String> haltAfterAckFile() {
                return Optional.empty();
            }

            @Override
            public Optional<String> topicPrefix() {
                return Optional.of(TestTopics.PREFIX);
            }
        };
        return new ServiceSettings() {
            @Override
            public String name() {
                return "relay-test";
            }

            @Override
            public String schema() {
                return "catalog";
            }

            @Override
            public Outbox outbox() {
                return outbox;
            }
        };
    }
}
