package io.lakehouse.common.testing;

import io.lakehouse.common.events.CloudEventHeaders;
import io.lakehouse.common.events.LakehouseEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads what reaches the Kafka broker from its creation on, as an audit consumer would: every
 * partition assigned and positioned at its end first, so a used broker's history is not read. It reads the test
 * run's twin of the topic ({@link TestTopics}), where the services under test publish.
 */
public final class EventReader implements AutoCloseable {

    private final KafkaConsumer<String, byte[]> consumer;
    private final List<ConsumerRecord<String, byte[]>> seen = new ArrayList<>();

    /** @param contractTopic the contract's name, e.g. {@code lakehouse.audit} */
    public EventReader(String contractTopic) {
        String topic = TestTopics.of(contractTopic);
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestServers.kafka());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        consumer = new KafkaConsumer<>(props);
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        // Resolve the end now, before the test publishes anything.
        partitions.forEach(consumer::position);
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
