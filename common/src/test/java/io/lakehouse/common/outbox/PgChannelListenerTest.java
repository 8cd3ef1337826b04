package io.lakehouse.common.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.common.testing.TestServers;
import io.vertx.mutiny.sqlclient.Pool;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The listener against the real PostgreSQL of the test command: what a commit's NOTIFY hands to the callback, the
 * resync after each (re)connection, the sweep, and a listening connection the server drops.
 */
class PgChannelListenerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final String channel = "listener_test_" + System.nanoTime();
    /** What the callback got, in order: a list of payloads, or "resync" for null. */
    private final List<Object> wakes = new CopyOnWriteArrayList<>();
    private final Pool pool = TestServers.reactivePool("catalog");
    private PgChannelListener listener;
    private PgChannelListener other;

    @BeforeAll
    static void servers() {
        TestServers.requireReachable();
    }

    @AfterEach
    void stop() {
        if (listener != null) {
            listener.close();
        }
        if (other != null) {
            other.close();
        }
        pool.close();
    }

    @Test
    void commitsAreHandedOverAfterTheResyncOfTheConnection() throws SQLException {
        start(Duration.ofSeconds(30));
        await().atMost(WAIT).until(() -> wakes.contains("resync"));

        notify("a", "b");
        notify("c");

        await().atMost(WAIT).until(() -> payloads().equals(List.of("a", "b", "c")));
        assertThat(wakes.get(0)).isEqualTo("resync");
    }

    @Test
    void withoutNotificationsTheTimeoutWakesItWithNothing() {
        start(Duration.ofMillis(100));

        await().atMost(WAIT).until(() -> wakes.contains(List.of()));
        assertThat(payloads()).isEmpty();
    }

    @Test
    void aDroppedConnectionIsReplacedAndResyncedAndItsChannelHeardAgain() throws SQLException {
        start(Duration.ofSeconds(30));
        await().atMost(WAIT).until(() -> listening() == 1);

        try (Connection c = jdbc().getConnection(); PreparedStatement terminate = c.prepareStatement(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = ?")) {
            terminate.setString(1, "LISTEN " + channel);
            terminate.execute();
        }
        await().atMost(WAIT).until(() -> wakes.stream().filter("resync"::equals).count() == 2 && listening() == 1);
        notify("after");

        await().atMost(WAIT).until(() -> payloads().equals(List.of("after")));
    }

    @Test
    void listenersOfOnePoolShareOneBackendAndEachHearsOnlyItsChannel() throws SQLException {
        String otherChannel = channel + "_other";
        List<Object> otherWakes = new CopyOnWriteArrayList<>();
        start(Duration.ofSeconds(30));
        other = new PgChannelListener(pool, otherChannel, Duration.ofSeconds(30),
                payloads -> otherWakes.add(payloads == null ? "resync" : List.copyOf(payloads))).start();
        await().atMost(WAIT).until(() -> wakes.contains("resync") && otherWakes.contains("resync"));

        assertThat(backendsWhoseLastStatementIs("LISTEN " + channel + "%")).isEqualTo(1);
        notify("mine");
        notifyOn(otherChannel, "theirs");
        await().atMost(WAIT).until(() -> payloads().equals(List.of("mine")) && otherWakes.contains(List.of("theirs")));

        other.close();
        await().atMost(WAIT).until(() -> backendsWhoseLastStatementIs("UNLISTEN " + otherChannel) == 1);
        notify("still");
        await().atMost(WAIT).until(() -> payloads().equals(List.of("mine", "still")));
        assertThat(wakes).doesNotContain(List.of("theirs"));
    }

    private void start(Duration timeout) {
        listener = new PgChannelListener(pool, channel, timeout,
                payloads -> wakes.add(payloads == null ? "resync" : List.copyOf(payloads))).start();
    }

    private List<Object> payloads() {
        return wakes.stream().filter(w -> w instanceof List<?>).flatMap(w -> ((List<?>) w).stream())
                .map(Object.class::cast).toList();
    }

    /** NOTIFYs sent by one transaction: delivered together at its commit. */
    private void notify(String... payloads) throws SQLException {
        notifyOn(channel, payloads);
    }

    private void notifyOn(String channel, String... payloads) throws SQLException {
        try (Connection c = jdbc().getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement st = c.prepareStatement("SELECT pg_notify(?, ?)")) {
                for (String payload : payloads) {
                    st.setString(1, channel);
                    st.setString(2, payload);
                    st.execute();
                }
            }
            c.commit();
        }
    }

    /** The backends listening on the channel (the last statement of each is its LISTEN). */
    private long listening() throws SQLException {
        return backendsWhoseLastStatementIs("LISTEN " + channel);
    }

    private static long backendsWhoseLastStatementIs(String pattern) throws SQLException {
        try (Connection c = jdbc().getConnection(); PreparedStatement st = c.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE query LIKE ?")) {
            st.setString(1, pattern);
            try (var rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static DataSource jdbc() {
        return TestServers.schema("catalog");
    }
}
