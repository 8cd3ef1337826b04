package io.lakehouse.common.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Queries sent to the reactive pool while PostgreSQL is down (nothing listens on its port) fail at once,
 * and nothing reaches the uncaught-exception handler (Quarkus logs it at ERROR) when the pool's
 * connection timeout elapses afterwards; any other uncaught exception still does.
 */
class PoolTimerRaceFilterTest {

    private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    private Vertx vertx;
    private Pool pool;

    @BeforeEach
    void start() throws IOException {
        vertx = Vertx.vertx();
        vertx.exceptionHandler(uncaught::add); // stands for Quarkus' handler, which logs at ERROR
        int downPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            downPort = socket.getLocalPort();
        }
        pool = PgBuilder.pool()
                .with(new PoolOptions().setMaxSize(2).setConnectionTimeout(1).setConnectionTimeoutUnit(TimeUnit.SECONDS))
                .connectingTo(new PgConnectOptions().setHost("127.0.0.1").setPort(downPort).setDatabase("x")
                        .setUser("x").setPassword("x"))
                .using(vertx)
                .build();
    }

    @AfterEach
    void stop() {
        pool.close();
        vertx.close();
    }

    @Test
    void queriesDuringAnOutageFailFastAndLeaveNoUncaughtError() {
        PoolTimerRaceFilter filter = new PoolTimerRaceFilter();
        filter.install(vertx);

        for (int i = 0; i < 3; i++) {
            Throwable failure = pool.query("SELECT 1").execute().toCompletionStage().toCompletableFuture()
                    .handle((rows, error) -> error).join();
            assertThat(failure).as("the caller sees the outage").isNotNull();
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> filter.filtered() == 3); // the timers fired
        assertThat(uncaught).isEmpty();

        vertx.runOnContext(ignored -> {
            throw new IllegalStateException("something else");
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> uncaught.size() == 1);
        assertThat(uncaught.get(0)).hasMessage("something else");
    }
}
