package io.lakehouse.access.it;

import static io.lakehouse.access.it.Api.instance;
import static io.lakehouse.access.it.Api.instanceEvent;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.access.events.AccessEvents;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.security.Subject;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.lakehouse.common.testing.StatementWrites;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An {@code instance.deleted} costs access-service one statement (after it, the audit log's row): the inbox row, the
 * instance and its grants gone with one {@code access.grant-removed} each, its OIDC client no longer wanted, instead
 * of a transaction of seven round trips and one more per grant. The events are those the API's revocations publish; a
 * redelivered deletion writes nothing. A trigger of the test's records which statement wrote each row.
 */
@QuarkusTest
@WithKubernetesTestServer
@QuarkusTestResource(value = TestStack.class, restrictToAnnotatedClass = true)
class DeletedInstanceOneStatementTest {

    @Inject
    Pool pool;

    @Inject
    AccessEvents accessEvents;

    StatementWrites writes;

    @BeforeEach
    void seeWritingStatements() throws InterruptedException {
        Api.awaitInstancesConsumer();
        writes = new StatementWrites(pool)
                .watch("inbox", "INSERT", "NEW.consumer")
                .watch("instances", "DELETE", "OLD.namespace || '/' || OLD.name")
                .watch("grants", "DELETE", "OLD.name || ' ' || OLD.subject_type || ':' || OLD.subject")
                .watch("outbox", "INSERT", "NEW.type || ' ' || coalesce(NEW.data ->> 'subjectType', '') || ':'"
                        + " || coalesce(NEW.data ->> 'subject', '')")
                .watch("oidc_clients", "UPDATE", "NEW.client_id || ' wanted ' || NEW.wanted");
    }

    @AfterEach
    void dropTriggers() {
        writes.close();
    }

    @Test
    void aDeletionIsOneStatementWithItsGrantsEventsAndARedeliveryWritesNothing() {
        String ns = Callers.freshNamespace();
        InstanceKey sql = new InstanceKey(ns, "trino", "sql");
        String grantRemoved = EventType.GRANT_REMOVED.cloudEventType();
        try (EventWriter writer = new EventWriter(); EventReader published = new EventReader("lakehouse.access")) {
            writer.send(instanceEvent(EventType.INSTANCE_REQUESTED, ns, "trino", "sql", "dora"));
            writer.send(instanceEvent(EventType.INSTANCE_REQUESTED, ns, "nifi", "witness", "dora"));
            awaitGrants(ns, "trino", "sql", 200);
            awaitGrants(ns, "nifi", "witness", 200);
            asAdmin().body("{\"subjects\":[\"group:/analysts\"]}").post(instance(ns, "trino", "sql") + "/grants")
                    .then().statusCode(200);

            LakehouseEvent deleted = instanceEvent(EventType.INSTANCE_DELETED, ns, "trino", "sql", "dora");
            writer.send(deleted);
            awaitGrants(ns, "trino", "sql", 404);
            assertThat(writes.writtenWith("instances", ns + "/sql")).as("what the deletion's statement wrote")
                    .containsExactlyInAnyOrder("inbox instances", "instances " + ns + "/sql",
                            "grants sql user:dora", "grants sql group:/analysts",
                            "outbox " + grantRemoved + " user:dora", "outbox " + grantRemoved + " group:/analysts",
                            "oidc_clients " + ns + ".sql.trino wanted false");

            // The same events as a revocation through the API, each with an id of its own.
            await().atMost(Api.PROPAGATION).until(() -> removals(published, sql).size() == 2);
            List<LakehouseEvent> removals = removals(published, sql);
            assertThat(removals).extracting(LakehouseEvent::data).containsExactlyInAnyOrder(
                    accessEvents.grantRemoved(sql, new Subject(Subject.Type.USER, "dora")).data(),
                    accessEvents.grantRemoved(sql, new Subject(Subject.Type.GROUP, "/analysts")).data());
            assertThat(removals).extracting(LakehouseEvent::source).containsOnly("/lakehouse/access-service");
            assertThat(removals.get(0).id()).isNotEqualTo(removals.get(1).id());

            // Kafka redelivers the deletion after a rebalance: the inbox drops it.
            writer.send(deleted);
            writer.send(instanceEvent(EventType.INSTANCE_DELETED, ns, "nifi", "witness", "dora"));
            awaitGrants(ns, "nifi", "witness", 404);
        }
        assertThat(writes.statementsWriting("inbox", "instances"))
                .filteredOn(st -> st.contains("DELETE FROM instances"))
                .as("the deletions applied: the redelivered one is not").hasSize(2);
        assertThat(writes.written("outbox")).filteredOn(w -> w.startsWith(grantRemoved)).containsExactlyInAnyOrder(
                grantRemoved + " user:dora", grantRemoved + " group:/analysts", grantRemoved + " user:dora");
    }

    private static List<LakehouseEvent> removals(EventReader published, InstanceKey key) {
        return published.events(key.subject()).stream().filter(e -> e.type() == EventType.GRANT_REMOVED).toList();
    }

    private static void awaitGrants(String ns, String kind, String name, int status) {
        await().atMost(Api.PROPAGATION)
                .until(() -> asAdmin().get(instance(ns, kind, name) + "/grants").statusCode() == status);
    }
}
