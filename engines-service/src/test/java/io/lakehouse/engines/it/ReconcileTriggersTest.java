package io.lakehouse.engines.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.engines.it.Api.instances;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agroal.api.AgroalDataSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.config.ReconcileSettings;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.common.kube.ReconcileLoop;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.instances.OidcClientStore;
import io.opentelemetry.api.OpenTelemetry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A dependency change learnt by a replica that does not lead (its consumer took the event) must
 * reach the replica that reconciles. The service running here leads; the other replica is a
 * reconcile loop on the same schema that never leads, waking the leader as the consumers do.
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
    InformerCache cache;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ReconcileSettings settings;

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

        ReconcileLoop follower = new ReconcileLoop(key -> {
            throw new AssertionError("a replica that does not lead never reconciles");
        }, cache, List::of, dataSource, pool, settings, service.schema(), List.of(), kind -> true,
                OpenTelemetry.noop().getTracer("test"));
        Api.oidcClientSecret(kube, ns, "trino", "sql");
        pool.withTransaction(tx -> clients.put(tx, ns, "sql", "trino", "sql-oidc")
                .chain(() -> follower.wake(tx, List.of(ns + "/sql")))).await().atMost(CONVERGE);

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
