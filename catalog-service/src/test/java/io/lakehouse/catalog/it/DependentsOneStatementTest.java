package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogRequest;
import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
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
 * The dependents' consumer reads every instance event of the other services. An event that names a catalog, and a
 * deletion, cost it one statement (the inbox row and the change together) instead of a transaction's four round trips;
 * an event that names none (an mlflow's, a nifi's) costs it none. A trigger of the test's records which statement wrote
 * each row. A redelivered event still changes nothing.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class DependentsOneStatementTest {

    private static final Duration PROPAGATION = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    Pool pool;

    StatementWrites writes;

    @BeforeEach
    void seeWritingStatements() {
        writes = new StatementWrites(pool)
                .watch("inbox", "INSERT", "NEW.consumer")
                .watch("catalog_dependents", "INSERT OR UPDATE OR DELETE",
                        "TG_OP || ' ' || coalesce(NEW.kind, OLD.kind) || '/' || coalesce(NEW.name, OLD.name)");
    }

    @AfterEach
    void dropTriggers() {
        writes.close();
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
            assertThat(writes.writtenWith("catalog_dependents", "INSERT trino/t1"))
                    .as("what the trino's statement wrote")
                    .containsExactlyInAnyOrder("inbox dependents", "catalog_dependents INSERT trino/t1");
            assertThat(writes.written("inbox")).as("inbox rows of the dependents' consumer: none for the mlflow")
                    .filteredOn("dependents"::equals).hasSize(1);

            writer.send(Api.engineEvent(EventType.INSTANCE_DELETED, ns, "trino", "t1", "cat"));
            await().atMost(PROPAGATION).until(() -> usedBy(ns).isEmpty());
            assertThat(writes.writtenWith("catalog_dependents", "DELETE trino/t1"))
                    .as("what the deletion's statement wrote")
                    .containsExactlyInAnyOrder("inbox dependents", "catalog_dependents DELETE trino/t1");

            // The request again (Kafka redelivers after a rebalance): the inbox drops it, the catalog stays unused.
            writer.send(requested);
            writer.send(Api.engineEvent(EventType.INSTANCE_REQUESTED, ns, "spark-connect", "witness", "cat"));
            await().atMost(PROPAGATION).until(() -> usedBy(ns).contains("spark-connect/witness"));
        }
        assertThat(usedBy(ns)).containsExactly("spark-connect/witness");
        assertThat(writes.written("catalog_dependents")).as("the redelivery wrote nothing").containsExactly(
                "INSERT trino/t1", "DELETE trino/t1", "INSERT spark-connect/witness");
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
}
