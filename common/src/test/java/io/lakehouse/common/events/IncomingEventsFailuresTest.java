package io.lakehouse.common.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.config.ConsumerSettings;
import io.opentelemetry.api.OpenTelemetry;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.vertx.pgclient.PgException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.junit.jupiter.api.Test;

/** What happens to a record whose handler fails: tried again, dead-lettered, or left for the next consumer. */
class IncomingEventsFailuresTest {

    private final IncomingEvents events = new IncomingEvents(new Settings(), OpenTelemetry.noop().getTracer("test"));
    private final AtomicInteger tries = new AtomicInteger();
    private final List<String> outcome = new ArrayList<>();

    @Test
    void aFailureThatPassesLaterIsTriedAgainInPlaceThenAcknowledged() throws Exception {
        handle(e -> tries.incrementAndGet() < 3 ? Uni.createFrom().failure(pg("57P01")) : Uni.createFrom().voidItem());
        assertThat(tries).hasValue(3);
        assertThat(outcome).containsExactly("ack");
    }

    @Test
    void dataTheDatabaseRefusesIsDeadLetteredAfterOneTry() throws Exception {
        handle(e -> fail(pg("22021")));
        assertThat(tries).hasValue(1);
        assertThat(outcome).singleElement().asString().startsWith("nack: data refused by the database: ");
    }

    @Test
    void aFailureThatNeverPassesIsDeadLetteredAfterEveryTry() throws Exception {
        handle(e -> fail(pg("42P01")));
        assertThat(tries).hasValue(4);
        assertThat(outcome).singleElement().asString().startsWith("nack: failed 4 times: ");
    }

    @Test
    void onceTheServiceStopsAFailingRecordIsLeftUnacknowledgedForTheNextConsumer() throws Exception {
        events.stop(null);
        // the pool closes under the handler while the service stops: no retry, no dead letter, no ack
        handle(e -> fail(new IllegalStateException("Pool closed")));
        assertThat(tries).hasValue(1);
        assertThat(outcome).isEmpty();
    }

    private Uni<Void> fail(Throwable failure) {
        tries.incrementAndGet();
        return Uni.createFrom().failure(failure);
    }

    private void handle(Function<LakehouseEvent, Uni<Void>> handler) throws Exception {
        LakehouseEvent event = LakehouseEvent.of("test", EventType.MEMBER_SET, "ns",
                CloudEventHeaders.parseData("{\"namespace\":\"ns\",\"subjectType\":\"user\",\"subject\":\"u\",\"role\":\"viewer\"}"));
        ProducerRecord<String, byte[]> sent = CloudEventHeaders.record(event, null);
        ConsumerRecord<String, byte[]> received = new ConsumerRecord<>(sent.topic(), 0, 0L, 0L,
                TimestampType.CREATE_TIME, 0, sent.value().length, sent.key(), sent.value(), sent.headers(),
                Optional.empty());
        Message<byte[]> message = Message.of(received.value(),
                Metadata.of(new IncomingKafkaRecordMetadata<>(received, "test")),
                () -> {
                    outcome.add("ack");
                    return CompletableFuture.completedFuture(null);
                },
                failure -> {
                    outcome.add("nack: " + failure.getMessage());
                    return CompletableFuture.completedFuture(null);
                });
        events.handle(message, e -> {}, handler).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static PgException pg(String sqlState) {
        return new PgException("refused", "ERROR", sqlState, null);
    }

    private static final class Settings implements ConsumerSettings {
        @Override
        public int attempts() {
            return 4;
        }

        @Override
        public Duration initialBackoff() {
            return Duration.ofMillis(5);
        }

        @Override
        public Duration maxBackoff() {
            return Duration.ofMillis(20);
        }
    }
}
