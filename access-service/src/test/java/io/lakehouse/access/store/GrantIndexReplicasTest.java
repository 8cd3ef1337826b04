package io.lakehouse.access.store;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.awaitility.Awaitility.await;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.access.it.Api;
import io.lakehouse.access.it.TestStack;
import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two replicas of access-service: the one running here (which takes the API calls and the instance
 * events) and a second forward-auth index on the same schema, as another pod would hold it. A grant,
 * its revocation and the instance's deletion must reach the second within a second.
 */
@QuarkusTest
@WithKubernetesTestServer
@QuarkusTestResource(value = TestStack.class, restrictToAnnotatedClass = true)
class GrantIndexReplicasTest {

    private static final Duration BETWEEN_REPLICAS = Duration.ofSeconds(1);

    @Inject
    GrantStore store;

    @Inject
    ClusterSettings cluster;

    @Inject
    Pool pool;

    @Inject
    ServiceSettings service;

    @Test
    void grantsRevocationsAndDeletionsReachEveryReplica() throws InterruptedException {
        Api.awaitInstancesConsumer();
        String ns = Callers.freshNamespace();
        InstanceKey sql = new InstanceKey(ns, "trino", "sql");
        String host = Api.host(ns, "sql");
        GrantIndex otherReplica = new GrantIndex(store, cluster, pool, service);
        otherReplica.start(null);
        try (EventWriter writer = new EventWriter()) {
            Api.requestInstance(writer, ns, "trino", "sql", "dora");
            await().atMost(BETWEEN_REPLICAS).until(() -> otherReplica.instanceAt(host).isPresent()
                    && otherReplica.allows(sql, "dora", List.of()));

            asAdmin().body("{\"subjects\":[\"user:eve\"]}").post(Api.instance(ns, "trino", "sql") + "/grants")
                    .then().statusCode(200);
            await().atMost(BETWEEN_REPLICAS).until(() -> otherReplica.allows(sql, "eve", List.of()));

            asAdmin().delete(Api.instance(ns, "trino", "sql") + "/grants/user:eve").then().statusCode(204);
            await().atMost(BETWEEN_REPLICAS).until(() -> !otherReplica.allows(sql, "eve", List.of()));
            await().during(BETWEEN_REPLICAS).until(() -> otherReplica.allows(sql, "dora", List.of()));

            writer.send(Api.instanceEvent(EventType.INSTANCE_DELETED, ns, "trino", "sql", "dora"));
            await().atMost(Api.PROPAGATION).until(() -> otherReplica.instanceAt(host).isEmpty());
            await().atMost(BETWEEN_REPLICAS).until(() -> !otherReplica.allows(sql, "dora", List.of()));
        } finally {
            otherReplica.stop(null);
        }
    }
}
