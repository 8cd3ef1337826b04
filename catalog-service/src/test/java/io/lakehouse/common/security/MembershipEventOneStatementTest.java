package io.lakehouse.common.security;

import static io.lakehouse.common.testing.Callers.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.catalog.it.Api;
import io.lakehouse.catalog.it.TestStack;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A membership event costs its consumer one statement, one round trip to PostgreSQL (P9: the event's latency pays
 * every round trip of the consuming transaction): the inbox row and the role in one statement instead of BEGIN,
 * inbox, role, COMMIT. The statements that write the rows are seen by a trigger of the test's
 * ({@code current_query()}: the text the service sent). The inbox still makes a redelivered event a no-op.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class MembershipEventOneStatementTest {

    private static final Duration PROPAGATION = Duration.ofSeconds(10);

    @Inject
    Pool pool;

    @BeforeEach
    void seeWritingStatements() {
        sql("CREATE TABLE IF NOT EXISTS test_writes (tbl TEXT, statement TEXT)");
        sql("CREATE OR REPLACE FUNCTION test_write_seen() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF TG_TABLE_NAME = 'inbox' THEN IF NEW.consumer <> 'roles' THEN RETURN NULL; END IF; END IF;"
                + " INSERT INTO test_writes VALUES (TG_TABLE_NAME, current_query()); RETURN NULL; END $$");
        sql("CREATE TRIGGER test_inbox_written AFTER INSERT ON inbox FOR EACH ROW EXECUTE FUNCTION test_write_seen()");
        sql("CREATE TRIGGER test_roles_written AFTER INSERT OR UPDATE OR DELETE ON member_roles FOR EACH ROW"
                + " EXECUTE FUNCTION test_write_seen()");
    }

    @AfterEach
    void dropTriggers() {
        sql("DROP TRIGGER test_inbox_written ON inbox");
        sql("DROP TRIGGER test_roles_written ON member_roles");
        sql("DROP TABLE test_writes");
    }

    @Test
    void aMembershipIsAppliedInOneStatementAndARedeliveryChangesNothing() {
        String ns = Callers.freshNamespace();
        String instances = "/api/v1/namespaces/" + ns + "/instances/iceberg-catalog";
        LakehouseEvent operator = Api.memberSet(ns, "user", "olga", "operator");
        try (EventWriter writer = new EventWriter()) {
            writer.send(operator);
            await().atMost(PROPAGATION).until(() -> as("olga").get(instances).statusCode() == 200);

            List<String> writes = writes();
            assertThat(writes).as("tables written for the event, with the statement that wrote them").hasSize(2);
            assertThat(writes).allMatch(w -> w.contains("INSERT INTO inbox") && w.contains("INSERT INTO member_roles"));

            writer.send(Api.memberRemoved(ns, "user", "olga"));
            await().atMost(PROPAGATION).until(() -> as("olga").get(instances).statusCode() == 403);
            assertThat(writes()).as("the removal: its inbox row and the role's row, one statement").hasSize(4)
                    .allMatch(w -> w.contains("INSERT INTO inbox"));

            // The first event again (Kafka redelivers after a rebalance): the inbox drops it, olga stays out.
            writer.send(operator);
            LakehouseEvent witness = Api.memberSet(ns, "user", "wanda", "operator");
            writer.send(witness);
            await().atMost(PROPAGATION).until(() -> as("wanda").get(instances).statusCode() == 200);
        }
        as("olga").get(instances).then().statusCode(403);
        assertThat(writes()).as("the redelivery wrote nothing; the witness its two rows").hasSize(6);
    }

    /** "table statement" of each row written, in the order written. */
    private List<String> writes() {
        List<String> writes = new ArrayList<>();
        for (Row row : pool.query("SELECT tbl, statement FROM test_writes").execute().await().indefinitely()) {
            writes.add(row.getString(0) + " " + row.getString(1));
        }
        return writes;
    }

    private void sql(String statement) {
        pool.query(statement).execute().await().indefinitely();
    }
}
