package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogRequest;
import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.common.events.CloudEventHeaders;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.TraceContext;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.lakehouse.common.testing.TracingOn;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/**
 * One API request can be followed through Kafka: the event it writes carries the request's trace
 * context in the record's traceparent header (stored with the outbox row, since the relay publishes
 * later, in another transaction), and the span of a consumer that works on an event of that trace
 * continues it (catalog-service's consumer drops its own kind unread, so that event is an engine's
 * naming the catalog). Tracing is on for this class only (its profile), spans kept in memory; the
 * other tests run with it off, as locally.
 */
@QuarkusTest
@TestProfile(TracingOn.class)
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class TraceContextTest {

    private static final Duration PROPAGATION = Duration.ofSeconds(20);
    private static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");

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
    void anApiCallsTraceGoesWithItsEventThroughKafkaIntoTheConsumer() {
        String ns = Callers.freshNamespace();
        String caller = TracingOn.traceparent();
        String traceId = TracingOn.traceId(caller);
        try (EventReader events = new EventReader("lakehouse.instances")) {
            asAdmin().header(TraceContext.HEADER, caller).body(catalogRequest("cat", "trace-canary").toString())
                    .post(catalogs(ns)).then().statusCode(201);

            await().atMost(PROPAGATION).until(() -> !events.records(ns + "/").isEmpty());
            ConsumerRecord<String, byte[]> created = events.records(ns + "/").get(0);
            assertThat(header(created, TraceContext.HEADER)).as("traceparent of the API call's event")
                    .matches("00-" + traceId + "-[0-9a-f]{16}-01");

            // catalog-service drops its own kind unread (no span); an engine's event that names the catalog, written
            // in the same trace, is what its consumer works on
            String ownEventId = CloudEventHeaders.read(created.headers(), created.value()).orElseThrow().id().toString();
            LakehouseEvent engine = Api.engineEvent(EventType.INSTANCE_REQUESTED, ns, "trino", "sql", "cat");
            try (EventWriter writer = new EventWriter()) {
                writer.send(engine, header(created, TraceContext.HEADER));
            }
            String eventId = engine.id().toString();
            await().atMost(PROPAGATION).untilAsserted(() -> assertThat(consumerSpans(eventId))
                    .as("the consumer's span of event " + eventId)
                    .singleElement()
                    .satisfies(span -> assertThat(span.getTraceId()).isEqualTo(traceId)));
            assertThat(consumerSpans(ownEventId)).as("catalog-service's own event, acknowledged unread").isEmpty();
        }
    }

    private List<SpanData> consumerSpans(String eventId) {
        return spans.getFinishedSpanItems().stream()
                .filter(s -> s.getKind() == SpanKind.CONSUMER && eventId.equals(s.getAttributes().get(MESSAGE_ID)))
                .toList();
    }

    private static String header(ConsumerRecord<String, byte[]> record, String key) {
        Header header = record.headers().lastHeader(key);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
