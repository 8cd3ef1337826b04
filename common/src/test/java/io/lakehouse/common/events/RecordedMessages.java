package io.lakehouse.common.events;

import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

/** An event as a channel hands it to its consumer, whose ack ("ack") and nack ("nack: reason") go to a list. */
final class RecordedMessages {

    private RecordedMessages() {}

    static Message<byte[]> of(LakehouseEvent event, List<String> outcome) {
        return of(event, CloudEventHeaders.valueOf(event), outcome);
    }

    /** The event's headers and key with {@code value} as the record's value (e.g. data that is not JSON). */
    static Message<byte[]> of(LakehouseEvent event, byte[] value, List<String> outcome) {
        ProducerRecord<String, byte[]> sent = CloudEventHeaders.record(event, null);
        ConsumerRecord<String, byte[]> received = new ConsumerRecord<>(sent.topic(), 0, 0L, 0L,
                TimestampType.CREATE_TIME, 0, value.length, sent.key(), value, sent.headers(), Optional.empty());
        return Message.of(received.value(),
                Metadata.of(new IncomingKafkaRecordMetadata<>(received, "test")),
                () -> {
                    outcome.add("ack");
                    return CompletableFuture.completedFuture(null);
                },
                failure -> {
                    outcome.add("nack: " + failure.getMessage());
                    return CompletableFuture.completedFuture(null);
                });
    }
}
