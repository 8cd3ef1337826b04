package io.lakehouse.common.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.catalog.it.Api;
import io.lakehouse.catalog.it.TestStack;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The consumers apply events on connections of their own ({@link IncomingEvents#POOL}): with every connection of the
 * service's pool taken (as a burst of API requests takes them), an event is still applied at once, where before it
 * queued behind every request waiting for a connection.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class ConsumersOwnConnectionsTest {

    private static final Duration PROPAGATION = Duration.ofSeconds(10);

    @Inject
    Pool pool;

    @Inject
    @ReactiveDataSource(IncomingEvents.POOL)
    Pool events;

    @ConfigProperty(name = "quarkus.datasource.reactive.max-size")
    int apiConnections;

    @Test
    void aMembershipIsAppliedWhileEveryConnectionOfTheApiPoolIsTaken() throws Exception {
        String ns = Callers.freshNamespace();
        List<SqlConnection> held = new CopyOnWriteArrayList<>();
        AtomicBoolean released = new AtomicBoolean();
        // As many requests for a connection as the pool has: those beyond the free ones wait in its queue, and so
        // would anything asked of the pool after them. Each is closed as soon as it comes once the test is done.
        for (int i = 0; i < apiConnections; i++) {
            pool.getConnection().subscribe().with(c -> {
                if (released.get()) {
                    c.closeAndForget();
                } else {
                    held.add(c);
                }
            });
        }
        try {
            CompletableFuture<Void> probe = pool.query("SELECT 1").execute().replaceWithVoid()
                    .subscribeAsCompletionStage();
            assertThat(probe).as("the service's pool has no connection left")
                    .failsWithin(1, TimeUnit.SECONDS).withThrowableThat()
                    .isInstanceOf(TimeoutException.class);

            try (EventWriter writer = new EventWriter()) {
                writer.send(Api.memberSet(ns, "user", "pia", "operator"));
            }
            await().atMost(PROPAGATION).until(() -> role(ns, "pia").equals("operator"));
        } finally {
            released.set(true);
            held.forEach(SqlConnection::closeAndForget);
        }
    }

    /** The role stored for the user in the namespace, "" when none; read on the consumers' connections. */
    private String role(String namespace, String user) {
        var rows = events.preparedQuery("SELECT role FROM member_roles WHERE namespace = $1 AND subject_type = 'user'"
                + " AND subject = $2").execute(Tuple.of(namespace, user)).await().atMost(Duration.ofSeconds(5));
        return rows.size() == 0 ? "" : rows.iterator().next().getString(0);
    }
}
