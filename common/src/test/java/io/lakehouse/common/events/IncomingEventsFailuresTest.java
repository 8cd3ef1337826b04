package io.lakehouse.common.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.smallrye.mutiny.Uni;
import io.vertx.pgclient.PgException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

/** What happens to a record whose handler fails: tried again, dead-lettered, or left for the next consumer. */
class IncomingEventsFailuresTest {

    private final IncomingEvents events = new IncomingEvents(new FastRetrySettings(), OpenTelemetry.noop().getTracer("test"));
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
        Message<byte[]> message = RecordedMessages.of(event, outcome);
        events.handle(message, e -> {}, handler).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static PgException pg(String sqlState) {
        return new PgException("refused", "ERROR", sqlState, null);
    }
}
