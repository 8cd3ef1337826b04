package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** Two replicas against the real PostgreSQL of the test command: one leads, the other takes over. */
class LeaderLockTest {

    private static PGSimpleDataSource dataSource() {
        URI url = URI.create(System.getProperty("lakehouse.test.pg.url", "postgresql://127.0.0.1:55432/lakehouse_test"));
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setServerNames(new String[] {url.getHost()});
        ds.setPortNumbers(new int[] {url.getPort()});
        ds.setDatabaseName(url.getPath().substring(1));
        ds.setUser("catalog");
        ds.setPassword("catalog");
        return ds;
    }

    @Test
    void onlyOneReplicaLeadsAndTheOtherTakesOverWhenItStops() {
        String name = "test-" + UUID.randomUUID();
        AtomicInteger firstLeads = new AtomicInteger();
        AtomicInteger secondLeads = new AtomicInteger();
        LeaderLock first = new LeaderLock(dataSource(), name, Duration.ofMillis(200), firstLeads::incrementAndGet,
                firstLeads::decrementAndGet).start();
        await().atMost(Duration.ofSeconds(10)).until(() -> firstLeads.get() == 1);
        try (LeaderLock second = new LeaderLock(dataSource(), name, Duration.ofMillis(200),
                secondLeads::incrementAndGet, secondLeads::decrementAndGet).start()) {
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> secondLeads.get() == 0);
            first.close();
            await().atMost(Duration.ofSeconds(10)).until(() -> secondLeads.get() == 1);
            assertThat(firstLeads.get()).isEqualTo(1);
        }
    }
}
