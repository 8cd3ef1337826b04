package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.common.testing.TestServers;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Replicas competing for the lease against the real PostgreSQL of the test command (the catalog
 * role's schema, migrated with db/common): one leads, never two, and a new one within the lease when
 * the leader stops, is cut off, or was replaced.
 */
class LeaderLockTest {

    private static final Duration INTERVAL = Duration.ofMillis(200);
    private static final Duration TTL = Duration.ofSeconds(2);

    static DataSource dataSource() {
        return TestServers.schema("catalog");
    }

    @BeforeAll
    static void schema() {
        // The catalog service's tests clean this schema at their start; its own migrations may be there.
        Flyway.configure().dataSource(dataSource()).schemas("catalog").locations("classpath:db/common")
                .outOfOrder(true).validateOnMigrate(false).load().migrate();
    }

    /** Counts leaders across replicas and remembers whether two ever led at once. */
    static final class Leaders {
        final AtomicInteger current = new AtomicInteger();
        final AtomicBoolean overlapped = new AtomicBoolean();

        LeaderLock replica(DataSource ds, String name, AtomicInteger terms) {
            return new LeaderLock(ds, name, INTERVAL, TTL, () -> {
                terms.incrementAndGet();
                if (current.incrementAndGet() > 1) {
                    overlapped.set(true);
                }
            }, current::decrementAndGet);
        }
    }

    @Test
    void onlyOneReplicaLeadsAndTheOtherTakesOverAtOnceWhenItStops() {
        String name = "test-" + UUID.randomUUID();
        Leaders leaders = new Leaders();
        AtomicInteger firstTerms = new AtomicInteger();
        AtomicInteger secondTerms = new AtomicInteger();
        LeaderLock first = leaders.replica(dataSource(), name, firstTerms).start();
        await().atMost(Duration.ofSeconds(10)).until(first::isLeading);
        try (LeaderLock second = leaders.replica(dataSource(), name, secondTerms).start()) {
            await().during(TTL).atMost(TTL.multipliedBy(3)).until(() -> secondTerms.get() == 0);
            first.close();
            assertThat(first.isLeading()).isFalse();
            // The lease is ended on close: no waiting for it to expire.
            await().atMost(TTL.dividedBy(2)).until(second::isLeading);
            assertThat(firstTerms.get()).isEqualTo(1);
            assertThat(leaders.overlapped.get()).isFalse();
        }
    }

    @Test
    void aLeaderThatCannotStartLeadingStepsDownAndCompetesAgain() {
        String name = "test-" + UUID.randomUUID();
        AtomicInteger starts = new AtomicInteger();
        AtomicInteger stops = new AtomicInteger();
        // the first start fails, as a reconcile loop's does when its informer caches do not sync in time
        try (LeaderLock lock = new LeaderLock(dataSource(), name, INTERVAL, TTL, () -> {
            if (starts.incrementAndGet() == 1) {
                throw new IllegalStateException("informer caches did not sync");
            }
        }, stops::incrementAndGet).start()) {
            await().atMost(TTL.multipliedBy(3)).until(() -> starts.get() == 2 && lock.isLeading());
            assertThat(stops.get()).isEqualTo(1);
        }
    }

    @Test
    void aLeaderStoppingKeepsItsLeaseUntilItsPassesInFlightAreDone() throws Exception {
        String name = "test-" + UUID.randomUUID();
        CountDownLatch passDone = new CountDownLatch(1);
        AtomicBoolean secondLed = new AtomicBoolean();
        LeaderLock first = new LeaderLock(dataSource(), name, INTERVAL, TTL, () -> { }, () -> {
            try {
                passDone.await(); // the loop's step-down waits for its pass in flight
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }).start();
        await().atMost(Duration.ofSeconds(10)).until(first::isLeading);
        try (LeaderLock second = new LeaderLock(dataSource(), name, INTERVAL, TTL, () -> secondLed.set(true),
                () -> { }).start()) {
            CompletableFuture<Void> closing = CompletableFuture.runAsync(first::close);
            await().atMost(INTERVAL).until(() -> !first.isLeading());
            // Longer than the lease: it is renewed while the pass runs, so nobody else starts.
            await().during(TTL.multipliedBy(2)).atMost(TTL.multipliedBy(3)).until(() -> !secondLed.get());
            passDone.countDown();
            closing.get(10, TimeUnit.SECONDS);
            await().atMost(TTL.dividedBy(2)).until(second::isLeading);
        }
    }

    @Test
    void aLeaderCutOffFromTheDatabaseStepsDownAndAnotherLeadsWithinTheLeaseNeverBoth() {
        String name = "test-" + UUID.randomUUID();
        Leaders leaders = new Leaders();
        CuttableDataSource firstDs = new CuttableDataSource(dataSource());
        AtomicInteger firstTerms = new AtomicInteger();
        AtomicInteger secondTerms = new AtomicInteger();
        try (LeaderLock first = leaders.replica(firstDs, name, firstTerms).start()) {
            await().atMost(Duration.ofSeconds(10)).until(first::isLeading);
            try (LeaderLock second = leaders.replica(dataSource(), name, secondTerms).start()) {
                long cut = System.nanoTime();
                firstDs.cut(); // its node is gone: every database call hangs, no error, no closed socket
                await().atMost(TTL).until(() -> !first.isLeading() && leaders.current.get() == 0);
                await().atMost(TTL.multipliedBy(2)).until(second::isLeading);
                assertThat(Duration.ofNanos(System.nanoTime() - cut)).isLessThan(TTL.plus(INTERVAL).multipliedBy(2));
                assertThat(leaders.overlapped.get()).isFalse();
                assertThat(first.isLeading()).isFalse();
            } finally {
                firstDs.reconnect();
            }
        }
    }

    @Test
    void aLeaderWhoseLeaseWasTakenOverCannotRenewAndStepsDown() throws SQLException {
        String name = "test-" + UUID.randomUUID();
        Leaders leaders = new Leaders();
        AtomicInteger terms = new AtomicInteger();
        try (LeaderLock leader = leaders.replica(dataSource(), name, terms).start()) {
            await().atMost(Duration.ofSeconds(10)).until(leader::isLeading);
            try (Connection c = dataSource().getConnection(); Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE leader_leases SET holder = 'another-replica', epoch = epoch + 1,"
                        + " expires_at = now() + interval '1 minute' WHERE name = '" + name + "'");
            }
            await().atMost(INTERVAL.multipliedBy(3)).until(() -> !leader.isLeading() && leaders.current.get() == 0);
            await().during(TTL).until(() -> !leader.isLeading());
        }
    }

    /** A replica's view of the database that can be cut off: then every call blocks. */
    static final class CuttableDataSource implements DataSource {
        private final DataSource delegate;
        private volatile CountDownLatch cut = new CountDownLatch(0);

        CuttableDataSource(DataSource delegate) {
            this.delegate = delegate;
        }

        void cut() {
            cut = new CountDownLatch(1);
        }

        void reconnect() {
            cut.countDown();
        }

        @Override
        public Connection getConnection() throws SQLException {
            try {
                cut.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted", e);
            }
            return delegate.getConnection();
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return delegate.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            delegate.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            delegate.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return delegate.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getLogger("cuttable");
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            return delegate.unwrap(iface);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) throws SQLException {
            return delegate.isWrapperFor(iface);
        }
    }
}
