package io.lakehouse.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes events as another service of the suite would: CloudEvents 1.0 Kafka binding, binary mode, as common's
 * {@code CloudEventHeaders} writes them ({@code ce_*} headers, key = subject, JSON data). Each send waits for the
 * broker's ack (acks=all), so that the event is on the topic when the call returns.
 */
final class Events implements AutoCloseable {

  static final String INSTANCES = "lakehouse.instances";
  static final String ACCESS = "lakehouse.access";

  private final KafkaProducer<String, byte[]> producer;

  Events(String bootstrap) {
    if (!bootstrap.startsWith("127.0.0.1:")) {
      throw new IllegalArgumentException("benchmarks only talk to 127.0.0.1: " + bootstrap);
    }
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    this.producer = new KafkaProducer<>(p);
  }

  void send(String topic, String source, String type, String subject, JsonNode data) {
    RecordHeaders h = new RecordHeaders();
    h.add("ce_specversion", bytes("1.0"));
    h.add("ce_id", bytes(UUID.randomUUID().toString()));
    h.add("ce_source", bytes(source));
    h.add("ce_type", bytes(type));
    h.add("ce_subject", bytes(subject));
    h.add("ce_time", bytes(Instant.now().toString()));
    h.add("content-type", bytes("application/json"));
    try {
      producer.send(new ProducerRecord<>(topic, null, subject, bytes(data.toString()), h)).get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("publishing " + type + " for " + subject + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    producer.close();
  }
}
