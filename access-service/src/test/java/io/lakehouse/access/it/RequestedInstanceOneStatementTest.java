package io.lakehouse.access.it;

import static io.lakehouse.access.it.Api.instance;
import static io.lakehouse.access.it.Api.instanceEvent;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventWriter;
import io.lakehouse.common.testing.StatementWrites;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An {@code instance.requested} costs access-service one statement (after it, the audit log's row): the inbox row, the
 * instance, its deployer's grant with {@code access.grant-added}, and its OIDC client's intent, instead of a transaction
 * of eight round trips. Without a deployer there is no grant; a redelivered request writes nothing. A trigger of the
 * test's records which statement wrote each row.
 */
@QuarkusTest
@WithKubernetesTestServer
@QuarkusTestResource(value = TestStack.class, restrictToAnnotatedClass = true)
class RequestedInstanceOneStatementTest {

    @Inject
    Pool pool;

    StatementWrites writes;

    @BeforeEach
    void seeWritingStatements() throws InterruptedException {
        Api.awaitInstancesConsumer();
        writes = new StatementWrites(pool)
                .watch("inbox", "INSERT", "NEW.consumer")
                .watch("instances", "INSERT",
                        "NEW.namespace || '/' || NEW.name || ' by ' || coalesce(NEW.created_by, '-')")
                .watch("grants", "INSERT", "NEW.name || ' ' || NEW.subject_type || ':' || NEW.subject")
                .watch("outbox", "INSERT", "NEW.type")
                .watch("oidc_clients", "INSERT OR UPDATE", "TG_OP || ' ' || NEW.client_id");
    }

    @AfterEach
    void dropTriggers() {
        writes.close();
    }

    @Test
    void aRequestIsOneStatementWithItsGrantAndClientAndARedeliveryWritesNothing() {
        String ns = Callers.freshNamespace();
        LakehouseEvent sql = instanceEvent(EventType.INSTANCE_REQUESTED, ns, "trino", "sql", "dora");
        try (EventWriter writer = new EventWriter()) {
            writer.send(sql);
            awaitKnown(ns, "trino", "sql");
            assertThat(writes.writtenWith("instances", ns + "/sql by dora"))
                    .as("what the request's statement wrote").containsExactlyInAnyOrder(
                            "inbox instances", "instances " + ns + "/sql by dora", "grants sql user:dora",
                            "outbox lakehouse.access.grant-added.v1", "oidc_clients INSERT " + ns + ".sql.trino");

            // No deployer: the instance and its client, no grant.
            writer.send(instanceEvent(EventType.INSTANCE_REQUESTED, ns, "mlflow", "ml", ""));
            awaitKnown(ns, "mlflow", "ml");
            assertThat(writes.writtenWith("instances", ns + "/ml by -"))
                    .containsExactlyInAnyOrder("inbox instances", "instances " + ns + "/ml by -",
                            "oidc_clients INSERT " + ns + ".ml.mlflow");

            // The first request again (Kafka redelivers after a rebalance): the inbox drops it.
            writer.send(sql);
            writer.send(instanceEvent(EventType.INSTANCE_REQUESTED, ns, "nifi", "witness", "dora"));
            awaitKnown(ns, "nifi", "witness");
        }
        assertThat(writes.written("grants")).containsExactlyInAnyOrder("sql user:dora", "witness user:dora");
        assertThat(writes.written("outbox")).filteredOn(type -> type.contains("grant-added")).hasSize(2);
        assertThat(writes.written("oidc_clients")).as("clients made (the worker then updates their state)")
                .filteredOn(w -> w.startsWith("INSERT")).containsExactlyInAnyOrder("INSERT " + ns + ".sql.trino",
                        "INSERT " + ns + ".ml.mlflow", "INSERT " + ns + ".witness.nifi");
        assertThat(asAdmin().get(instance(ns, "trino", "sql") + "/grants").jsonPath().getList("subjects"))
                .containsExactly("user:dora");
        assertThat(asAdmin().get(instance(ns, "mlflow", "ml") + "/grants").jsonPath().getList("subjects")).isEmpty();
    }

    private static void awaitKnown(String ns, String kind, String name) {
        await().atMost(Api.PROPAGATION)
                .until(() -> asAdmin().get(instance(ns, kind, name) + "/grants").statusCode() == 200);
    }
}
