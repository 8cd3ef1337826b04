package io.lakehouse.common.testing;

import io.lakehouse.common.events.CloudEventHeaders;
import io.lakehouse.common.events.LakehouseEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads what really reached the Kafka broker, as an audit consumer would. */
public final class EventReader implements AutoCloseable {

    private final KafkaConsumer<String, byte[]> consumer;
    private final List<ConsumerRecord<String, byte[]>> seen = new ArrayList<>();

    public EventReader(String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestServers.kafka());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        consumer = new KafkaConsumer<>(props);
        consumer.subscribe(List.of(topic));
    }

    /** Every record read so far whose key (the subject) starts with the prefix. */
    public List<ConsumerRecord<String, byte[]>> records(String subjectPrefix) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            seen.add(r);
        }
        return seen.stream().filter(r -> r.key() != null && r.key().startsWith(subjectPrefix)).toList();
    }

    /** The events of a subject prefix, in partition order. */
    public List<LakehouseEvent> events(String subjectPrefix) {
        return records(subjectPrefix).stream()
                .map(r -> CloudEventHeaders.read(r.headers(), r.value()).orElseThrow())
                .toList();
    }

    @Override
    public void close() {
        consumer.close();
    }
}
