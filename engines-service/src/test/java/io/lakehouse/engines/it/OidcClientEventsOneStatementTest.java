package io.lakehouse.engines.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.engines.it.Api.instances;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.kube.ReconcileLoop;
import io.lakehouse.common.outbox.PgChannelListener;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventWriter;
import io.lakehouse.common.testing.StatementWrites;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An {@code access.oidc-client-ready} or {@code -removed} costs engines-service one statement: the inbox row, the
 * client's row and the wake of the instance's pass (a transaction of six round trips before). The wake works both ways
 * (a waiting Trino starts, then waits again), and a redelivered event writes nothing. A trigger of the test's records
 * which statement wrote each row.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class OidcClientEventsOneStatementTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    @Inject
    ServiceSettings service;

    StatementWrites writes;

    @BeforeEach
    void seeWritingStatements() {
        ClusterSimulation.of(kube);
        writes = new StatementWrites(pool)
                .watch("inbox", "INSERT", "NEW.consumer")
                .watch("oidc_clients", "INSERT OR DELETE", "TG_OP || ' ' || coalesce(NEW.namespace, OLD.namespace)"
                        + " || '/' || coalesce(NEW.name, OLD.name)");
    }

    @AfterEach
    void dropTriggers() {
        writes.close();
    }

    @Test
    void aClientEventIsOneStatementThatWakesThePassAndARedeliveryWritesNothing() {
        String ns = Api.namespaceWithTrino(kube);
        await().atMost(CONVERGE).until(() -> "WaitingForOidcClient".equals(reason(ns)));

        LakehouseEvent ready = clientEvent(EventType.OIDC_CLIENT_READY, ns);
        try (EventWriter writer = new EventWriter()) {
            Api.oidcClientSecret(kube, ns, "trino", "sql");
            writer.send(ready);
            await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns)));
            assertThat(writes.writtenWith("oidc_clients", "INSERT " + ns + "/sql"))
                    .containsExactlyInAnyOrder("inbox oidc-clients", "oidc_clients INSERT " + ns + "/sql");

            writer.send(clientEvent(EventType.OIDC_CLIENT_REMOVED, ns));
            await().atMost(CONVERGE).until(() -> "WaitingForOidcClient".equals(reason(ns)));
            assertThat(writes.writtenWith("oidc_clients", "DELETE " + ns + "/sql"))
                    .containsExactlyInAnyOrder("inbox oidc-clients", "oidc_clients DELETE " + ns + "/sql");

            // Kafka redelivers the first event after a rebalance: the inbox drops it, the client stays removed.
            writer.send(ready);
            writer.send(clientEvent(EventType.OIDC_CLIENT_READY, ns, "witness"));
            await().atMost(CONVERGE).until(() -> writes.written("oidc_clients").contains("INSERT " + ns + "/witness"));
        }
        assertThat(writes.written("oidc_clients")).filteredOn(w -> w.endsWith(ns + "/sql"))
                .containsExactly("INSERT " + ns + "/sql", "DELETE " + ns + "/sql");
        assertThat(reason(ns)).isEqualTo("WaitingForOidcClient");
    }

    @Test
    void aRemovalWakesOnlyAnInstanceThatIsStillWanted() {
        String ns = Api.namespaceWithTrino(kube);
        List<String> heard = new CopyOnWriteArrayList<>();
        PgChannelListener listener = new PgChannelListener(pool, ReconcileLoop.channelOf(service.schema()),
                Duration.ofSeconds(30), payloads -> heard.addAll(payloads == null ? List.of("resync") : payloads))
                .start();
        try (EventWriter writer = new EventWriter()) {
            await().atMost(CONVERGE).until(() -> heard.contains("resync"));
            // access-service removes the client of an instance deleted: by then its row is going or gone.
            LakehouseEvent ofGone = clientEvent(EventType.OIDC_CLIENT_REMOVED, ns, "gone");
            writer.send(ofGone);
            await().atMost(CONVERGE).until(() -> applied(ofGone));
            writer.send(clientEvent(EventType.OIDC_CLIENT_REMOVED, ns));
            await().atMost(CONVERGE).until(() -> heard.stream().anyMatch(p -> p.startsWith(ns + "/sql")));
        } finally {
            listener.close();
        }
        assertThat(heard).as("no wake for an instance without a row").noneMatch(p -> p.startsWith(ns + "/gone"));
    }

    private boolean applied(LakehouseEvent event) {
        return pool.preparedQuery("SELECT FROM inbox WHERE event_id = $1").execute(Tuple.of(event.id()))
                .await().indefinitely().size() == 1;
    }

    private static LakehouseEvent clientEvent(EventType type, String ns) {
        return clientEvent(type, ns, "sql");
    }

    private static LakehouseEvent clientEvent(EventType type, String ns, String name) {
        ObjectNode data = new ObjectMapper().createObjectNode().put("namespace", ns).put("kind", "trino")
                .put("name", name).put("clientId", ns + "-" + name + "-trino").put("secretName", name + "-oidc");
        return LakehouseEvent.of("/lakehouse/access-service", type, LakehouseEvent.instanceSubject(ns, "trino", name),
                data);
    }

    private static String phase(String ns) {
        return asAdmin().get(instances(ns, "trino") + "/sql").jsonPath().getString("status.phase");
    }

    private static String reason(String ns) {
        return asAdmin().get(instances(ns, "trino") + "/sql").jsonPath()
                .getString("status.conditions.find { it.type == 'OidcClientReady' }.reason");
    }
}
