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
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
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

    @BeforeEach
    void seeWritingStatements() {
        sql("CREATE TABLE IF NOT EXISTS test_writes (tbl TEXT, what TEXT, statement TEXT)");
        // One branch per table: PL/pgSQL resolves a record's field when the statement reading it runs.
        sql("CREATE OR REPLACE FUNCTION test_write_seen() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF TG_TABLE_NAME = 'outbox' THEN INSERT INTO test_writes VALUES (TG_TABLE_NAME, NEW.type,"
                + " current_query()); ELSIF TG_TABLE_NAME = 'instances' AND TG_OP = 'DELETE' THEN INSERT INTO"
                + " test_writes VALUES (TG_TABLE_NAME, TG_OP || ' ' || OLD.namespace, current_query());"
                + " ELSIF TG_TABLE_NAME = 'instances' THEN INSERT INTO test_writes VALUES (TG_TABLE_NAME, TG_OP"
                + " || ' ' || NEW.namespace, current_query()); ELSE INSERT INTO test_writes VALUES (TG_TABLE_NAME,"
                + " TG_OP, current_query()); END IF; RETURN NULL; END $$");
        sql("CREATE TRIGGER test_instances_written AFTER INSERT OR UPDATE OR DELETE ON instances FOR EACH ROW"
                + " EXECUTE FUNCTION test_write_seen()");
        sql("CREATE TRIGGER test_outbox_written AFTER INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION test_write_seen()");
        sql("CREATE TRIGGER test_intents_removed AFTER DELETE ON audit_intents FOR EACH ROW"
                + " EXECUTE FUNCTION test_write_seen()");
    }

    @AfterEach
    void dropTriggers() {
        sql("DROP TRIGGER test_instances_written ON instances");
        sql("DROP TRIGGER test_outbox_written ON outbox");
        sql("DROP TRIGGER test_intents_removed ON audit_intents");
        sql("DROP TABLE test_writes");
    }

    @Test
    void theRowItsEventAndTheAuditOutcomeAreOneStatementAndATakenNameWritesNone() {
        String ns = Callers.freshNamespace();
        asAdmin().body(Api.catalogRequest("one", "k").toString()).post(catalogs(ns)).then().statusCode(201);

        List<String> statements = statementsWriting("instances", "INSERT " + ns);
        assertThat(statements).as("the statements that inserted the instance's row").hasSize(1);
        String create = statements.get(0);
        assertThat(writtenBy(create)).as("what the create's statement wrote").containsExactlyInAnyOrder(
                "instances INSERT " + ns, "outbox lakehouse.instance.requested.v1",
                "outbox lakehouse.audit.recorded.v1", "audit_intents DELETE");

        asAdmin().body(Api.catalogRequest("one", "k").toString()).post(catalogs(ns)).then().statusCode(409);
        assertThat(statementsWriting("instances", "INSERT " + ns)).as("the refused create stored no row").hasSize(1);
        assertThat(statementsWriting("outbox", "lakehouse.instance.requested.v1")).as("nor an event").hasSize(1);
    }

    @Test
    void aChangeItsEventAndTheAuditOutcomeAreOneStatement() {
        String ns = Callers.freshNamespace();
        asAdmin().body(Api.catalogRequest("ch", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"resources\":{\"memory\":\"2Gi\"}}}")
                .patch(catalogs(ns) + "/ch").then().statusCode(200);

        List<String> statements = statementsWriting("outbox", "lakehouse.instance.updated.v1");
        assertThat(statements).as("the statements that announced the change").hasSize(1);
        assertThat(writtenBy(statements.get(0))).as("what the change's statement wrote").containsExactlyInAnyOrder(
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

        List<String> ready = statementsWriting("outbox", "lakehouse.instance.ready.v1");
        assertThat(ready).as("the statements that announced Ready").isNotEmpty();
        ready.forEach(statement -> assertThat(writtenBy(statement)).as("what the Ready statement wrote")
                .contains("instances UPDATE " + ns));

        asAdmin().delete(catalogs(ns) + "/ph").then().statusCode(202);
        List<String> deleting = statementsWriting("outbox", "lakehouse.instance.deleting.v1");
        assertThat(deleting).as("the statements that announced the deletion").hasSize(1);
        assertThat(writtenBy(deleting.get(0))).as("what the DELETE's statement wrote").containsExactlyInAnyOrder(
                "instances UPDATE " + ns, "outbox lakehouse.instance.deleting.v1",
                "outbox lakehouse.audit.recorded.v1", "audit_intents DELETE");
        await().atMost(Duration.ofSeconds(60)).until(() -> asAdmin().get(catalogs(ns) + "/ph").statusCode() == 404);
        List<String> forgotten = statementsWriting("instances", "DELETE " + ns);
        assertThat(forgotten).as("the statements that forgot the instance").hasSize(1);
        assertThat(writtenBy(forgotten.get(0))).as("what the forgetting statement wrote")
                .containsExactlyInAnyOrder("instances DELETE " + ns, "outbox lakehouse.instance.deleted.v1");
    }

    /** The statements that wrote a row of {@code table} described as {@code what}. */
    private List<String> statementsWriting(String table, String what) {
        List<String> statements = new ArrayList<>();
        for (Row row : pool.preparedQuery("SELECT statement FROM test_writes WHERE tbl = $1 AND what = $2")
                .execute(Tuple.of(table, what)).await().indefinitely()) {
            statements.add(row.getString(0));
        }
        return statements;
    }

    /** "table what" of each row the statement wrote. */
    private List<String> writtenBy(String statement) {
        List<String> rows = new ArrayList<>();
        for (Row row : pool.preparedQuery("SELECT tbl, what FROM test_writes WHERE statement = $1")
                .execute(Tuple.of(statement)).await().indefinitely()) {
            rows.add(row.getString(0) + " " + row.getString(1));
        }
        return rows;
    }

    private void sql(String statement) {
        pool.query(statement).execute().await().indefinitely();
    }
}
