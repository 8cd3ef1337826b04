package io.lakehouse.common.testing;

import io.lakehouse.common.events.CloudEventHeaders;
import io.lakehouse.common.events.LakehouseEvent;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Publishes events as another service would (e.g. memberships, or an instance.requested), on the test topics. */
public final class EventWriter implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;

    public EventWriter() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestServers.kafka());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producer = new KafkaProducer<>(props);
    }

    public void send(LakehouseEvent event) {
        send(event.type().topic().topicName(), event.subject(), CloudEventHeaders.headersOf(event),
                CloudEventHeaders.valueOf(event));
    }

    /** The record the publishing service's relay sends for an event written in the trace {@code traceparent}. */
    public void send(LakehouseEvent event, String traceparent) {
        ProducerRecord<String, byte[]> record = CloudEventHeaders.record(event, traceparent);
        send(record.topic(), record.key(), record.headers(), record.value());
    }

    /** @param topic the contract's name ({@code lakehouse.access}); the record goes to its {@link TestTopics} twin */
    public void send(String topic, String key, Headers headers, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(TestTopics.of(topic), null, key, value, headers)).get();
        } catch (Exception e) {
            throw new IllegalStateException("could not publish", e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
