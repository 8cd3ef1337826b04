package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogRequest;
import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;

import io.lakehouse.common.events.TraceContext;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.TracingOn;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A single GET of a catalog (P1) is one SQL statement: the row and the instances using the catalog
 * ({@code status.usedBy}) come back together, as an operator sees in the request's trace (one database
 * span). The DELETE refused while the catalog is used reads them the same way. Tracing is on for this class
 * (its profile), spans kept in memory.
 */
@QuarkusTest
@TestProfile(TracingOn.class)
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class CatalogGetStatementsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final AttributeKey<String> DB_SYSTEM = AttributeKey.stringKey("db.system");

    /** The exporter {@link TraceContextTest} produces (one per application). */
    @Inject
    InMemorySpanExporter spans;

    @Inject
    Pool pool;

    @Test
    void aSingleGetIsOneStatementAndShowsWhoUsesTheCatalog() {
        String ns = Callers.freshNamespace();
        asAdmin().body(catalogRequest("cat", "s3cr3t").toString()).post(catalogs(ns)).then().statusCode(201);
        // As DependentsConsumer records them from other services' lifecycle events.
        pool.preparedQuery("INSERT INTO catalog_dependents (namespace, catalog, kind, name)"
                        + " VALUES ($1, 'cat', 'trino', 't1'), ($1, 'cat', 'mlflow', 'm1')")
                .execute(Tuple.of(ns)).await().atMost(WAIT);

        String caller = TracingOn.traceparent();
        asAdmin().header(TraceContext.HEADER, caller).get(catalogs(ns) + "/cat").then().statusCode(200)
                .body("name", equalTo("cat")).body("status.usedBy", contains("mlflow/m1", "trino/t1"));
        assertThat(statementsOf(TracingOn.traceId(caller))).as("database spans of the GET").hasSize(1);

        // The DELETE takes the users from the same read.
        asAdmin().delete(catalogs(ns) + "/cat").then().statusCode(409)
                .body("detail", equalTo("the iceberg-catalog is used by mlflow/m1, trino/t1: delete them first"));
    }

    @Test
    void aCatalogNobodyUsesShowsAnEmptyUsedByAndPagesShowNone() {
        String ns = Callers.freshNamespace();
        asAdmin().body(catalogRequest("cat", "s3cr3t").toString()).post(catalogs(ns)).then().statusCode(201);
        asAdmin().get(catalogs(ns) + "/cat").then().statusCode(200).body("status.usedBy.size()", equalTo(0));
        asAdmin().get(catalogs(ns)).then().statusCode(200).body("items[0].status.containsKey('usedBy')", equalTo(false));
    }

    /** The SQL client's spans of one request's trace, once its server span has ended. */
    private List<SpanData> statementsOf(String traceId) {
        await().atMost(WAIT).until(() -> trace(traceId).stream().anyMatch(s -> s.getKind() == SpanKind.SERVER));
        List<SpanData> statements = trace(traceId).stream()
                .filter(s -> s.getKind() == SpanKind.CLIENT && s.getAttributes().get(DB_SYSTEM) != null).toList();
        statements.forEach(s -> System.out.printf("statement span %s: %s%n", s.getName(), s.getAttributes()));
        return statements;
    }

    private List<SpanData> trace(String traceId) {
        return spans.getFinishedSpanItems().stream().filter(s -> s.getTraceId().equals(traceId)).toList();
    }
}
