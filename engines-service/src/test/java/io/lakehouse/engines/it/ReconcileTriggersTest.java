package io.lakehouse.engines.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.engines.it.Api.instances;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.instances.OidcClientStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A dependency change learnt by a replica that does not lead (its consumer took the event) must
 * reach the replica that reconciles. The service running here leads; the test records the OIDC
 * client as another replica's consumer would, whose statement wakes the leader (a NOTIFY on the
 * schema's reconcile channel).
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class ReconcileTriggersTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    @Inject
    OidcClientStore clients;

    @Inject
    ServiceSettings service;

    @Test
    void anOidcClientLearntByAReplicaThatDoesNotLeadGetsTheTrinoRunning() {
        ClusterSimulation.of(kube);
        String ns = Callers.freshNamespace();
        Api.bucketSecret(kube, ns, "warehouse-bucket");
        Api.catalogReady(ns, "cat");
        await().atMost(CONVERGE).until(() -> pool.preparedQuery("SELECT 1 FROM catalogs WHERE namespace = $1")
                .execute(Tuple.of(ns)).await().indefinitely().size() == 1);
        asAdmin().body("{\"name\":\"sql\",\"spec\":{\"catalog\":\"cat\"}}").post(instances(ns, "trino"))
                .then().statusCode(201);
        await().atMost(CONVERGE).until(() -> "WaitingForOidcClient".equals(reason(ns)));

        Api.oidcClientSecret(kube, ns, "trino", "sql");
        // What the consumer of whichever replica took the event does: the row and the wake, in one statement.
        clients.put(UUID.randomUUID(), "test", ns, "sql", "trino", "sql-oidc", service.schema())
                .await().atMost(CONVERGE);

        await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns)));
        assertThat(kube.apps().deployments().inNamespace(ns).withName("sql").get()).isNotNull();
    }

    private static String phase(String ns) {
        return asAdmin().get(instances(ns, "trino") + "/sql").jsonPath().getString("status.phase");
    }

    private static String reason(String ns) {
        return asAdmin().get(instances(ns, "trino") + "/sql").jsonPath()
                .getString("status.conditions.find { it.type == 'OidcClientReady' }.reason");
    }
}
