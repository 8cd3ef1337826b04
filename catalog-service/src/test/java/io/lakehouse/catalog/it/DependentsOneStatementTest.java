package io.lakehouse.catalog.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.catalog.it.Api.catalogRequest;
import static io.lakehouse.catalog.it.Api.catalogs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakehouse.common.events.CloudEventHeaders;
import io.lakehouse.common.events.EventType;
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
 * The dependents' consumer reads every instance event of the other services. An event that names a catalog, and a
 * deletion, cost it one statement (the inbox row and the change together) instead of a transaction's four round trips;
 * an event that names none (an mlflow's, a nifi's) costs it none. The statements that write are seen by a trigger of
 * the test's ({@code current_query()}: the text the service sent). A redelivered event still changes nothing.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class DependentsOneStatementTest {

    private static final Duration PROPAGATION = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    Pool pool;

    @BeforeEach
    void seeWritingStatements() {
        sql("CREATE TABLE IF NOT EXISTS test_writes (tbl TEXT, statement TEXT)");
        sql("CREATE OR REPLACE FUNCTION test_write_seen() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF TG_TABLE_NAME = 'inbox' THEN IF NEW.consumer <> 'dependents' THEN RETURN NULL; END IF; END IF;"
                + " INSERT INTO test_writes VALUES (TG_TABLE_NAME, current_query()); RETURN NULL; END $$");
        sql("CREATE TRIGGER test_inbox_written AFTER INSERT ON inbox FOR EACH ROW EXECUTE FUNCTION test_write_seen()");
        sql("CREATE TRIGGER test_dependents_written AFTER INSERT OR UPDATE OR DELETE ON catalog_dependents"
                + " FOR EACH ROW EXECUTE FUNCTION test_write_seen()");
    }

    @AfterEach
    void dropTriggers() {
        sql("DROP TRIGGER test_inbox_written ON inbox");
        sql("DROP TRIGGER test_dependents_written ON catalog_dependents");
        sql("DROP TABLE test_writes");
    }

    @Test
    void aDependentCostsOneStatementPerChangeAndAnEventWithoutACatalogNone() {
        String ns = Callers.freshNamespace();
        asAdmin().body(catalogRequest("cat", "secret").toString()).post(catalogs(ns)).then().statusCode(201);
        LakehouseEvent requested = Api.engineEvent(EventType.INSTANCE_REQUESTED, ns, "trino", "t1", "cat");
        try (EventWriter writer = new EventWriter()) {
            // On the trino's partition (its key), so that it is consumed before the trino's own event.
            LakehouseEvent mlflow = mlflowEvent(ns);
            writer.send(mlflow.type().topic().topicName(), requested.subject(), CloudEventHeaders.headersOf(mlflow),
                    CloudEventHeaders.valueOf(mlflow));
            writer.send(requested);
            await().atMost(PROPAGATION).until(() -> usedBy(ns).contains("trino/t1"));
            assertThat(writes()).as("the trino's inbox row and dependent, one statement; nothing for the mlflow")
                    .hasSize(2).allMatch(w -> w.contains("INSERT INTO inbox") && w.contains("INSERT INTO catalog_dependents"));

            writer.send(Api.engineEvent(EventType.INSTANCE_DELETED, ns, "trino", "t1", "cat"));
            await().atMost(PROPAGATION).until(() -> usedBy(ns).isEmpty());
            assertThat(writes()).as("the deletion: its inbox row and the removal, one statement").hasSize(4)
                    .allMatch(w -> w.contains("INSERT INTO inbox"));

            // The request again (Kafka redelivers after a rebalance): the inbox drops it, the catalog stays unused.
            writer.send(requested);
            writer.send(Api.engineEvent(EventType.INSTANCE_REQUESTED, ns, "spark-connect", "witness", "cat"));
            await().atMost(PROPAGATION).until(() -> usedBy(ns).contains("spark-connect/witness"));
        }
        assertThat(usedBy(ns)).containsExactly("spark-connect/witness");
        assertThat(writes()).as("the redelivery wrote nothing; the witness its two rows").hasSize(6);
    }

    private static LakehouseEvent mlflowEvent(String ns) {
        ObjectNode data = JSON.createObjectNode().put("namespace", ns).put("kind", "mlflow").put("name", "m1")
                .put("phase", "Pending");
        data.putObject("spec").putObject("storage").put("bucket", "b");
        return LakehouseEvent.of("/lakehouse/engines-service", EventType.INSTANCE_REQUESTED,
                LakehouseEvent.instanceSubject(ns, "mlflow", "m1"), data);
    }

    private static List<Object> usedBy(String ns) {
        return asAdmin().get(catalogs(ns) + "/cat").jsonPath().getList("status.usedBy");
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
