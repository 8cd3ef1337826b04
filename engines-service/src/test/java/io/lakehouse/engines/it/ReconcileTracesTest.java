package io.lakehouse.engines.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.engines.it.Api.instances;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.TraceContext;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.TracingOn;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A reconcile pass runs later than the request or event that asked for it, on a worker of the queue,
 * yet continues its trace: the trino's create (the API call's traceparent) and the OIDC client event
 * that unblocks it (the traceparent access-service's relay sends, through real Kafka and the NOTIFY the
 * consumer's transaction commits on real PostgreSQL) each reach a pass of the instance in their trace.
 */
@QuarkusTest
@TestProfile(TracingOn.class)
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class ReconcileTracesTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);
    private static final AttributeKey<String> KEY = AttributeKey.stringKey("lakehouse.key");

    /** Picked up by Quarkus' default trace exporter ("cdi": every SpanExporter bean). */
    @Singleton
    static class Spans {
        @Produces
        @Singleton
        InMemorySpanExporter exporter() {
            return InMemorySpanExporter.create();
        }
    }

    @Inject
    InMemorySpanExporter spans;

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    @Test
    void theTrinosPassesContinueTheTracesOfItsCreateItsChangeItsDeletionAndOfTheEventThatUnblocksIt() {
        ClusterSimulation.of(kube);
        String ns = Callers.freshNamespace();
        Api.bucketSecret(kube, ns, "warehouse-bucket");
        Api.catalogReady(ns, "cat");
        await().atMost(CONVERGE).until(() -> pool.preparedQuery("SELECT 1 FROM catalogs WHERE namespace = $1")
                .execute(Tuple.of(ns)).await().indefinitely().size() == 1);

        String create = TracingOn.traceparent();
        asAdmin().header(TraceContext.HEADER, create).body("{\"name\":\"sql\",\"spec\":{\"catalog\":\"cat\"}}")
                .post(instances(ns, "trino")).then().statusCode(201);
        await().atMost(CONVERGE).untilAsserted(() -> assertThat(passes(ns + "/sql"))
                .as("the create's trace holds a reconcile pass of the trino")
                .anySatisfy(pass -> assertThat(pass.getTraceId()).isEqualTo(TracingOn.traceId(create))));
        await().atMost(CONVERGE).until(() -> "WaitingForOidcClient".equals(reason(ns)));

        String clientReady = TracingOn.traceparent();
        Api.oidcClientReady(kube, ns, "trino", "sql", "oidc-client-secret", clientReady);
        await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns)));
        await().atMost(CONVERGE).untilAsserted(() -> assertThat(passes(ns + "/sql"))
                .as("the OIDC client event's trace holds a reconcile pass of the trino")
                .anySatisfy(pass -> assertThat(pass.getTraceId()).isEqualTo(TracingOn.traceId(clientReady))));

        // A change and a deletion are one statement each: the trace rides in its row guard to the trigger.
        String patch = TracingOn.traceparent();
        asAdmin().header(TraceContext.HEADER, patch).contentType("application/merge-patch+json")
                .body("{\"spec\":{\"workers\":3}}").patch(instances(ns, "trino") + "/sql").then().statusCode(200);
        await().atMost(CONVERGE).untilAsserted(() -> assertThat(passes(ns + "/sql"))
                .as("the patch's trace holds a reconcile pass of the trino")
                .anySatisfy(pass -> assertThat(pass.getTraceId()).isEqualTo(TracingOn.traceId(patch))));
        String delete = TracingOn.traceparent();
        asAdmin().header(TraceContext.HEADER, delete).delete(instances(ns, "trino") + "/sql").then().statusCode(202);
        await().atMost(CONVERGE).untilAsserted(() -> assertThat(passes(ns + "/sql"))
                .as("the delete's trace holds a reconcile pass of the trino")
                .anySatisfy(pass -> assertThat(pass.getTraceId()).isEqualTo(TracingOn.traceId(delete))));
    }

    private List<SpanData> passes(String key) {
        return spans.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals("reconcile pass") && key.equals(s.getAttributes().get(KEY)))
                .toList();
    }

    private static String phase(String ns) {
        return asAdmin().get(instances(ns, "trino") + "/sql").jsonPath().getString("status.phase");
    }

    private static String reason(String ns) {
        return asAdmin().get(instances(ns, "trino") + "/sql").jsonPath()
                .getString("status.conditions.find { it.type == 'OidcClientReady' }.reason");
    }
}
