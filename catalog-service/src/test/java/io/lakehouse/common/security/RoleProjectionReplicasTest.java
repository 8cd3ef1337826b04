package io.lakehouse.common.security;

import static io.lakehouse.common.testing.Callers.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.catalog.it.Api;
import io.lakehouse.catalog.it.TestStack;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Two replicas of a service: the one running here (whose consumer group takes the membership
 * events) and a second projection on the same schema, as another pod would run it. A role given and
 * then removed must reach both, the second within a second of the first.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class RoleProjectionReplicasTest {

    private static final Duration PROPAGATION = Duration.ofSeconds(10);
    private static final Duration BETWEEN_REPLICAS = Duration.ofSeconds(1);

    @Inject
    Pool pool;

    @Inject
    ServiceSettings service;

    @Test
    void aRoleGivenAndRemovedReachesEveryReplica() {
        String ns = Callers.freshNamespace();
        String instances = "/api/v1/namespaces/" + ns + "/instances/iceberg-catalog";
        Subject vera = Subject.user("vera");
        RoleProjection otherReplica = new RoleProjection(pool, pool, service);
        otherReplica.start(null);
        try (EventWriter writer = new EventWriter()) {
            writer.send(Api.memberSet(ns, "user", "vera", "operator"));
            await().atMost(PROPAGATION).until(() -> as("vera").get(instances).statusCode() == 200);
            await().atMost(BETWEEN_REPLICAS)
                    .until(() -> otherReplica.roleOf(ns, vera).equals(Optional.of(Role.OPERATOR)));

            writer.send(Api.memberRemoved(ns, "user", "vera"));
            await().atMost(PROPAGATION).until(() -> as("vera").get(instances).statusCode() == 403);
            await().atMost(BETWEEN_REPLICAS).until(() -> otherReplica.roleOf(ns, vera).isEmpty());
        } finally {
            otherReplica.stop(null);
        }
    }

    /**
     * A replica that starts knows the table's roles once its start is done (the HTTP server opens after it): the first
     * load runs on the listener's thread while the rest of the service starts, and the start waits for it.
     */
    @Test
    void aStartingReplicaKnowsTheTablesRolesWhenItsStartIsDone() throws Exception {
        String ns = Callers.freshNamespace();
        pool.preparedQuery("INSERT INTO member_roles (namespace, subject_type, subject, role, updated_at)"
                + " VALUES ($1, 'user', 'wanda', 'admin', now())").execute(Tuple.of(ns)).await().indefinitely();
        RoleProjection starting = new RoleProjection(pool, pool, service);
        try {
            starting.start(null);
            starting.awaitFirstLoad(null);
            assertThat(starting.roleOf(ns, Subject.user("wanda"))).contains(Role.ADMIN);
        } finally {
            starting.stop(null);
        }
    }
}
