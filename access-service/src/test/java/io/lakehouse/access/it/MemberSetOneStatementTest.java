package io.lakehouse.access.it;

import static io.lakehouse.access.it.Api.members;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventReader;
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
 * A membership PUT is one statement after its audit intent (P9: the event's latency starts when it is made, and the
 * outcome's own transaction and relay pass ran beside every consumer's): the member's row, its {@code
 * access.member-set}, the call's audit outcome and the intent's removal are written by the same statement, instead of
 * BEGIN, a locking read, two writes, COMMIT and the response filter's outcome. The same role again writes nothing
 * there, and its outcome is still recorded. A trigger of the test's records which statement wrote each row.
 */
@QuarkusTest
@WithKubernetesTestServer
@QuarkusTestResource(value = TestStack.class, restrictToAnnotatedClass = true)
class MemberSetOneStatementTest {

    @Inject
    Pool pool;

    StatementWrites writes;

    @BeforeEach
    void seeWritingStatements() {
        writes = new StatementWrites(pool)
                .watch("members", "INSERT OR UPDATE", "TG_OP || ' ' || NEW.namespace || ' ' || NEW.role")
                .watch("outbox", "INSERT", "NEW.type")
                .watch("audit_intents", "DELETE", "TG_OP");
    }

    @AfterEach
    void dropTriggers() {
        writes.close();
    }

    @Test
    void aSetItsEventAndTheAuditOutcomeAreOneStatementAndTheSameRoleAgainWritesNone() {
        String ns = Callers.freshNamespace();
        String target = members(ns) + "/user:uma";
        try (EventReader audit = new EventReader("lakehouse.audit")) {
            asAdmin().body("{\"role\":\"viewer\"}").put(target).then().statusCode(200).body("role", equalTo("viewer"));
            assertThat(writes.writtenWith("members", "INSERT " + ns + " viewer"))
                    .as("what the new member's statement wrote").containsExactlyInAnyOrder(
                            "members INSERT " + ns + " viewer", "outbox lakehouse.access.member-set.v1",
                            "outbox lakehouse.audit.recorded.v1", "audit_intents DELETE");

            asAdmin().body("{\"role\":\"admin\"}").put(target).then().statusCode(200).body("role", equalTo("admin"));
            assertThat(writes.writtenWith("members", "UPDATE " + ns + " admin"))
                    .as("what the changed role's statement wrote").containsExactlyInAnyOrder(
                            "members UPDATE " + ns + " admin", "outbox lakehouse.access.member-set.v1",
                            "outbox lakehouse.audit.recorded.v1", "audit_intents DELETE");

            asAdmin().body("{\"role\":\"admin\"}").put(target).then().statusCode(200).body("role", equalTo("admin"));
            assertThat(writes.written("members")).as("rows written to members")
                    .containsExactlyInAnyOrder("INSERT " + ns + " viewer", "UPDATE " + ns + " admin");
            assertThat(writes.written("outbox")).as("member-set events")
                    .filteredOn(type -> type.contains("member-set")).hasSize(2);

            // Each of the three calls is in the audit log once, with the status its caller got.
            await().atMost(Api.PROPAGATION).until(() -> outcomes(audit.events(ns), target).size() == 3);
            assertThat(outcomes(audit.events(ns), target)).containsExactly(200, 200, 200);
        }
        asAdmin().get(target).then().statusCode(200).body("role", equalTo("admin"));
    }

    private static List<Integer> outcomes(List<LakehouseEvent> audit, String target) {
        return audit.stream().filter(e -> e.data().path("target").asText().equals(target))
                .map(e -> e.data().path("outcome").asInt()).toList();
    }
}
