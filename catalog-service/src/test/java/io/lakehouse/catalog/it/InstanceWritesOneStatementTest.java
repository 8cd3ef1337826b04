package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.StatementWrites;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A create is one statement after its audit intent (P3: the POST's answer waits for every round trip of its writes):
 * the instance's row, its {@code instance.requested} event, the call's audit outcome and the intent's removal are
 * written by the same statement, which commits on its own, instead of BEGIN, five writes and COMMIT. A name already
 * taken writes nothing there. So are a change (its {@code instance.updated} and outcome), the DELETE's mark (its
 * {@code instance.deleting} and outcome), a pass's status with its phase event, and the forgetting of a deleted
 * instance with its {@code instance.deleted}. A trigger of the test's records which statement ({@code current_query()}) wrote
 * each row.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class InstanceWritesOneStatementTest {

    @Inject
    Pool pool;

    @Inject
    KubernetesClient kube;

    StatementWrites writes;

    @BeforeEach
    void seeWritingStatements() {
        writes = new StatementWrites(pool)
                .watch("instances", "INSERT OR UPDATE OR DELETE",
                        "TG_OP || ' ' || CASE TG_OP WHEN 'DELETE' THEN OLD.namespace ELSE NEW.namespace END")
                .watch("outbox", "INSERT", "NEW.type")
                .watch("audit_intents", "DELETE", "TG_OP");
    }

    @AfterEach
    void dropTriggers() {
        writes.close();
    }

    @Test
    void theRowItsEventAndTheAuditOutcomeAreOneStatementAndATakenNameWritesNone() {
        String ns = Callers.freshNamespace();
        asAdmin().body(Api.catalogRequest("one", "k").toString()).post(catalogs(ns)).then().statusCode(201);

        List<String> statements = writes.statementsWriting("instances", "INSERT " + ns);
        assertThat(statements).as("the statements that inserted the instance's row").hasSize(1);
        String create = statements.get(0);
        assertThat(writes.writtenBy(create)).as("what the create's statement wrote").containsExactlyInAnyOrder(
                "instances INSERT " + ns, "outbox lakehouse.instance.requested.v1",
                "outbox lakehouse.audit.recorded.v1", "audit_intents DELETE");

        asAdmin().body(Api.catalogRequest("one", "k").toString()).post(catalogs(ns)).then().statusCode(409);
        assertThat(writes.statementsWriting("instances", "INSERT " + ns)).as("the refused create stored no row").hasSize(1);
        assertThat(writes.statementsWriting("outbox", "lakehouse.instance.requested.v1")).as("nor an event").hasSize(1);
    }

    @Test
    void aChangeItsEventAndTheAuditOutcomeAreOneStatement() {
        String ns = Callers.freshNamespace();
        asAdmin().body(Api.catalogRequest("ch", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"resources\":{\"memory\":\"2Gi\"}}}")
                .patch(catalogs(ns) + "/ch").then().statusCode(200);

        List<String> statements = writes.statementsWriting("outbox", "lakehouse.instance.updated.v1");
        assertThat(statements).as("the statements that announced the change").hasSize(1);
        assertThat(writes.writtenBy(statements.get(0))).as("what the change's statement wrote").containsExactlyInAnyOrder(
                "instances UPDATE " + ns, "outbox lakehouse.instance.updated.v1",
                "outbox lakehouse.audit.recorded.v1", "audit_intents DELETE");
        asAdmin().get(catalogs(ns) + "/ch").then().statusCode(200).body("generation", equalTo(2));
    }

    @Test
    void aPhaseChangeAndItsEventAreOneStatementAndSoIsTheDeletion() {
        ClusterSimulation.of(kube);
        String ns = Callers.freshNamespace();
        asAdmin().body(Api.catalogRequest("ph", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        CatalogLifecycleTest.awaitPhase(ns, "ph", "Ready");

        // Other tests' instances may turn Ready meanwhile: each Ready statement wrote its row and its event.
        List<List<String>> ready = writes.statementsWriting("outbox", "lakehouse.instance.ready.v1").stream()
                .map(writes::writtenBy).toList();
        assertThat(ready).as("what each Ready statement wrote").allSatisfy(written -> assertThat(written)
                .hasSize(2).contains("outbox lakehouse.instance.ready.v1").anyMatch(w -> w.startsWith("instances UPDATE")));
        assertThat(ready).as("what the Ready statements wrote")
                .anySatisfy(written -> assertThat(written).contains("instances UPDATE " + ns));

        asAdmin().delete(catalogs(ns) + "/ph").then().statusCode(202);
        List<String> deleting = writes.statementsWriting("outbox", "lakehouse.instance.deleting.v1");
        assertThat(deleting).as("the statements that announced the deletion").hasSize(1);
        assertThat(writes.writtenBy(deleting.get(0))).as("what the DELETE's statement wrote").containsExactlyInAnyOrder(
                "instances UPDATE " + ns, "outbox lakehouse.instance.deleting.v1",
                "outbox lakehouse.audit.recorded.v1", "audit_intents DELETE");
        await().atMost(Duration.ofSeconds(60)).until(() -> asAdmin().get(catalogs(ns) + "/ph").statusCode() == 404);
        List<String> forgotten = writes.statementsWriting("instances", "DELETE " + ns);
        assertThat(forgotten).as("the statements that forgot the instance").hasSize(1);
        assertThat(writes.writtenBy(forgotten.get(0))).as("what the forgetting statement wrote")
                .containsExactlyInAnyOrder("instances DELETE " + ns, "outbox lakehouse.instance.deleted.v1");
    }
}
