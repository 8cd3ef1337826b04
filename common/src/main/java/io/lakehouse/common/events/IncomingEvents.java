package io.lakehouse.common.events;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * The consumer side of the contract, once for every channel: a malformed record is nacked (the
 * channel's dead-letter strategy sends it to {@code <topic>.dlq} with the reason), an unknown or
 * newer type is acknowledged and ignored, anything else goes to the handler and is acknowledged
 * when the handler's transaction is done.
 */
public final class IncomingEvents {

    private static final Logger LOG = Logger.getLogger(IncomingEvents.class);

    private IncomingEvents() {}

    /**
     * @param check throws {@link MalformedEventException} when a known event lacks what the
     *     handler needs
     */
    public static CompletionStage<Void> handle(
            Message<byte[]> message, Consumer<LakehouseEvent> check, Function<LakehouseEvent, Uni<Void>> handler) {
        Optional<LakehouseEvent> event;
        try {
            IncomingKafkaRecordMetadata<?, ?> meta = message.getMetadata(IncomingKafkaRecordMetadata.class)
                    .orElseThrow(() -> new MalformedEventException("not a Kafka record"));
            event = CloudEventHeaders.read(meta.getHeaders(), message.getPayload());
            event.ifPresent(check);
        } catch (MalformedEventException e) {
            LOG.warnf("malformed event sent to the dead-letter topic: %s", e.getMessage());
            return message.nack(e);
        }
        if (event.isEmpty()) {
            return message.ack();
        }
        return handler.apply(event.get()).subscribeAsCompletionStage().thenCompose(v -> message.ack());
    }
}
