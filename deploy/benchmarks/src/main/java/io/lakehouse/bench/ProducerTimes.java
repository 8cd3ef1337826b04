package io.lakehouse.bench;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * When events reached Kafka as their producer saw it: the record timestamp (CreateTime), which the Kafka producer
 * takes after it waited for the topic's metadata, so after a broker that was down is serving the topic again. Read
 * with a consumer of no group (assigned partitions, from an offset found by time, up to the end offsets).
 */
final class ProducerTimes {

  private ProducerTimes() {}

  /** The earliest timestamp of the records whose {@code ce_id} is in {@code eventIds}, sent since {@code sinceMs}. */
  static OptionalLong earliest(String bootstrap, Collection<String> topics, Set<String> eventIds, long sinceMs) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (String topic : topics) {
        consumer.partitionsFor(topic, Duration.ofSeconds(30))
            .forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
      }
      consumer.assign(partitions);
      Map<TopicPartition, Long> since = new HashMap<>();
      partitions.forEach(tp -> since.put(tp, sinceMs));
      Map<TopicPartition, OffsetAndTimestamp> from = consumer.offsetsForTimes(since, Duration.ofSeconds(30));
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
      for (TopicPartition tp : partitions) {
        OffsetAndTimestamp start = from.get(tp);
        consumer.seek(tp, start == null ? end.get(tp) : start.offset());
      }
      long earliest = Long.MAX_VALUE;
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("reading " + topics + " up to their end offsets took over 60 s");
        }
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
          Header id = record.headers().lastHeader("ce_id");
          if (id != null && eventIds.contains(new String(id.value(), StandardCharsets.UTF_8))) {
            earliest = Math.min(earliest, record.timestamp());
          }
        }
      }
      return earliest == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(earliest);
    }
  }
}
