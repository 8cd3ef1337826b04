package io.lakehouse.access.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.common.events.EventType;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventWriter;
import io.lakehouse.common.testing.TracingOn;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The OIDC client of an instance another service created is made in the trace of that creation: the
 * instance.requested event carries the creating request's traceparent (as the other service's relay
 * sends it, on real Kafka), and the client's pass, later on the worker's queue, continues it.
 */
@QuarkusTest
@TestProfile(TracingOn.class)
@WithKubernetesTestServer
@QuarkusTestResource(value = TestStack.class, restrictToAnnotatedClass = true)
class OidcClientTracesTest {

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

    @Test
    void theClientsPassContinuesTheTraceOfTheInstancesCreation() throws InterruptedException {
        Api.awaitInstancesConsumer();
        String ns = Callers.freshNamespace();
        String creation = TracingOn.traceparent();
        try (EventWriter writer = new EventWriter()) {
            writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "nifi", "flow", "dora"), creation);
        }
        String api = Api.instance(ns, "nifi", "flow") + "/oidc-client";
        await().atMost(Api.PROPAGATION).until(() -> asAdmin().get(api).path("reason") != null);
        await().atMost(Api.PROPAGATION).untilAsserted(() -> assertThat(passes(ns + "/nifi/flow"))
                .as("the client's passes")
                .anySatisfy(pass -> assertThat(pass.getTraceId()).isEqualTo(TracingOn.traceId(creation))));
    }

    private List<SpanData> passes(String key) {
        return spans.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals("oidc-clients pass") && key.equals(s.getAttributes().get(KEY)))
                .toList();
    }
}
