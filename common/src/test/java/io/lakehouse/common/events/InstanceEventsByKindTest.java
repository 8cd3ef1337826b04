package io.lakehouse.common.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.smallrye.mutiny.Uni;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

/**
 * A consumer of {@code lakehouse.instances} wants a few kinds: the others are acknowledged from their subject, unread
 * (catalog-service used to parse and trace each of its own ~3 events per catalog only to drop them).
 */
class InstanceEventsByKindTest {

    private static final byte[] NOT_JSON = "{not json".getBytes(StandardCharsets.UTF_8);

    private final IncomingEvents events = new IncomingEvents(new FastRetrySettings(), OpenTelemetry.noop().getTracer("test"));
    private final List<String> outcome = new ArrayList<>();
    private final List<LakehouseEvent> handled = new ArrayList<>();

    @Test
    void anEventOfAnotherKindIsAcknowledgedWithoutReadingItsData() throws Exception {
        // data that is not JSON would go to the dead-letter topic if it were read
        handle(RecordedMessages.of(event("ns/iceberg-catalog/c1", "iceberg-catalog"), NOT_JSON, outcome));
        assertThat(outcome).containsExactly("ack");
        assertThat(handled).isEmpty();
    }

    @Test
    void anEventOfAWantedKindReachesTheHandler() throws Exception {
        handle(RecordedMessages.of(event("ns/trino/t1", "trino"), outcome));
        assertThat(outcome).containsExactly("ack");
        assertThat(handled).singleElement().satisfies(e -> assertThat(e.subject()).isEqualTo("ns/trino/t1"));
    }

    @Test
    void aWantedKindWithMalformedDataStillGoesToTheDeadLetterTopic() throws Exception {
        handle(RecordedMessages.of(event("ns/trino/t1", "trino"), NOT_JSON, outcome));
        assertThat(outcome).singleElement().asString().startsWith("nack: malformed event");
        assertThat(handled).isEmpty();
    }

    @Test
    void withoutAKindInItsSubjectTheDataDecides() throws Exception {
        handle(RecordedMessages.of(event("ns", "iceberg-catalog"), outcome));
        handle(RecordedMessages.of(event("ns", "trino"), outcome));
        assertThat(outcome).containsExactly("ack", "ack");
        assertThat(handled).singleElement().satisfies(e -> assertThat(e.data().path("kind").asText()).isEqualTo("trino"));
    }

    @Test
    void theKindOfAnInstanceSubjectIsItsMiddlePart() {
        assertThat(LakehouseEvent.kindOfInstanceSubject(LakehouseEvent.instanceSubject("ns", "spark-connect", "sc")))
                .isEqualTo("spark-connect");
        for (String notAnInstance : List.of("ns", "ns/trino", "/trino/t", "ns//t", "ns/trino/", "ns/trino/t/x", "")) {
            assertThat(LakehouseEvent.kindOfInstanceSubject(notAnInstance)).as(notAnInstance).isNull();
        }
    }

    private void handle(Message<byte[]> message) throws Exception {
        events.handleInstances(message, "trino"::equals, e -> {}, e -> {
            handled.add(e);
            return Uni.createFrom().voidItem();
        }).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static LakehouseEvent event(String subject, String kind) {
        return LakehouseEvent.of("test", EventType.INSTANCE_READY, subject,
                CloudEventHeaders.parseData("{\"namespace\":\"ns\",\"kind\":\"" + kind + "\",\"name\":\"x\"}"));
    }
}
