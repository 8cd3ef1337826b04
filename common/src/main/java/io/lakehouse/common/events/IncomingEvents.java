package io.lakehouse.common.events;

import io.lakehouse.common.config.ConsumerSettings;
import io.lakehouse.common.metrics.LakehouseMetrics;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * The consumer side of the contract, once for every channel: a malformed record is nacked (the
 * channel's dead-letter strategy sends it to {@code <topic>.dlq} with the reason), an unknown or
 * newer type is acknowledged and ignored, anything else goes to the handler and is acknowledged
 * when the handler's transaction is done.
 *
 * <p>A failing handler (the database restarting, a record it can never store) is tried again in
 * place with a growing backoff, so the partition keeps its order; after {@code attempts} tries the
 * record goes to the dead-letter topic with the last error as its reason and the partition moves on.
 * A record whose data the database refuses ({@link RefusedData}) goes there after its first try.
 * Once the service is stopping (its database pool closes), a failing record is neither tried again
 * nor dead-lettered: it stays unacknowledged, so its offset is not committed and the partition's
 * next consumer applies it.
 * A failure never reaches the channel, which would stop it (and fail the service's health).
 */
@ApplicationScoped
public class IncomingEvents {

    /**
     * The datasource of the handlers' statements ({@code @ReactiveDataSource(IncomingEvents.POOL) Pool}): a few
     * connections of their own (common's microprofile-config.properties), so an event never waits behind the API's
     * requests for one.
     */
    public static final String POOL = "events";

    private static final Logger LOG = Logger.getLogger(IncomingEvents.class);

    private final ConsumerSettings settings;
    private final Tracer tracer;
    private final AtomicBoolean stopping = new AtomicBoolean();

    IncomingEvents(ConsumerSettings settings, Tracer tracer) {
        this.settings = settings;
        this.tracer = tracer;
    }

    void stop(@Observes ShutdownEvent event) {
        stopping.set(true);
    }

    /**
     * @param check throws {@link MalformedEventException} when a known event lacks what the
     *     handler needs
     * @param handler applies the event; called again on each retry, so it must build its work anew
     */
    public CompletionStage<Void> handle(
            Message<byte[]> message, Consumer<LakehouseEvent> check, Function<LakehouseEvent, Uni<Void>> handler) {
        Optional<LakehouseEvent> event;
        IncomingKafkaRecordMetadata<?, ?> meta;
        try {
            meta = message.getMetadata(IncomingKafkaRecordMetadata.class)
                    .orElseThrow(() -> new MalformedEventException("not a Kafka record"));
            event = CloudEventHeaders.read(meta.getHeaders(), message.getPayload());
            event.ifPresent(check);
        } catch (MalformedEventException e) {
            LOG.warnf("malformed event sent to the dead-letter topic: %s", e.getMessage());
            deadLettered(message);
            return message.nack(e);
        }
        if (event.isEmpty()) {
            return message.ack();
        }
        LakehouseEvent e = event.get();
        Span span = span(meta, e);
        Context traced = TraceContext.of(meta.getHeaders()).with(span);
        AtomicInteger attempt = new AtomicInteger();
        return Uni.createFrom().deferred(() -> {
                    try (Scope ignored = traced.makeCurrent()) {
                        return handler.apply(e);
                    }
                })
                .onFailure().invoke(failure -> LOG.warnf("event %s (%s) failed, attempt %d of %d: %s", e.id(),
                        e.type().cloudEventType(), attempt.incrementAndGet(), settings.attempts(), failure.getMessage()))
                .onFailure(failure -> !stopping.get() && !RefusedData.isCause(failure)).retry()
                .withBackOff(settings.initialBackoff(), settings.maxBackoff())
                .atMost(settings.attempts() - 1L)
                .subscribeAsCompletionStage()
                .handle((ok, failure) -> ended(span, failure))
                .thenCompose(failure -> failure == null ? message.ack()
                        : stopping.get() ? leftForTheNextConsumer(e, failure)
                        : deadLetter(message, e, failure, attempt.get()));
    }

    /**
     * {@link #handle} for {@code lakehouse.instances}, whose consumers each want a few kinds of the topic's events:
     * an event of another kind is acknowledged as it comes, without parsing its data or opening a span, when its
     * subject names its kind ({@code <namespace>/<kind>/<name>}, {@code ce_subject}); the handler sees only events
     * whose data's {@code kind} is wanted.
     */
    public CompletionStage<Void> handleInstances(Message<byte[]> message, Predicate<String> wantedKinds,
            Consumer<LakehouseEvent> check, Function<LakehouseEvent, Uni<Void>> handler) {
        String kind = subjectKind(message);
        if (kind != null && !wantedKinds.test(kind)) {
            return message.ack();
        }
        return handle(message, check, event -> wantedKinds.test(event.data().path("kind").asText())
                ? handler.apply(event) : Uni.createFrom().voidItem());
    }

    private static String subjectKind(Message<byte[]> message) {
        return message.getMetadata(IncomingKafkaRecordMetadata.class)
                .map(meta -> CloudEventHeaders.subject(meta.getHeaders()))
                .map(LakehouseEvent::kindOfInstanceSubject)
                .orElse(null);
    }

    /**
     * The consumer's span, a child of the request that wrote the event (its {@link TraceContext#HEADER});
     * a no-op span when tracing is off.
     */
    private Span span(IncomingKafkaRecordMetadata<?, ?> meta, LakehouseEvent event) {
        return tracer.spanBuilder(meta.getTopic() + " process " + event.type().cloudEventType())
                .setParent(TraceContext.of(meta.getHeaders()))
                .setSpanKind(SpanKind.CONSUMER)
                .setAttribute("messaging.system", "kafka")
                .setAttribute("messaging.destination.name", meta.getTopic())
                .setAttribute("messaging.message.id", event.id().toString())
                .setAttribute("cloudevents.event_subject", event.subject())
                .startSpan();
    }

    private static Throwable ended(Span span, Throwable failure) {
        if (failure != null) {
            span.setStatus(StatusCode.ERROR, failure.getMessage());
        }
        span.end();
        return failure;
    }

    private static CompletionStage<Void> leftForTheNextConsumer(LakehouseEvent event, Throwable failure) {
        LOG.infof("event %s (%s) not applied before the service stopped (%s): left unacknowledged for the"
                + " partition's next consumer", event.id(), event.type().cloudEventType(), failure.getMessage());
        return CompletableFuture.completedFuture(null);
    }

    private CompletionStage<Void> deadLetter(
            Message<byte[]> message, LakehouseEvent event, Throwable failure, int attempts) {
        Throwable cause = failure.getCause() != null && failure.getMessage() != null
                && failure.getMessage().startsWith("Retries exhausted") ? failure.getCause() : failure;
        String reason = RefusedData.isCause(cause)
                ? "data refused by the database: " + cause.getMessage()
                : "failed " + attempts + " times: " + cause.getMessage();
        LOG.errorf("event %s (%s) sent to the dead-letter topic: %s", event.id(), event.type().cloudEventType(), reason);
        deadLettered(message);
        return message.nack(new HandlerFailedException(reason, cause));
    }

    private static void deadLettered(Message<byte[]> message) {
        String topic = message.getMetadata(IncomingKafkaRecordMetadata.class).map(m -> m.getTopic()).orElse("unknown");
        LakehouseMetrics.increment(LakehouseMetrics.DEAD_LETTERS, "events sent to a dead-letter topic", "topic", topic);
    }

    /** The dead-letter reason of an event its handler could not apply. */
    public static final class HandlerFailedException extends RuntimeException {
        HandlerFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
