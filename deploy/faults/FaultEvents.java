import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka chores of the fault suite (deploy/faults/run) that the console tools make clumsy: CloudEvents headers,
 * reading a whole topic to its end, resetting a group. Compiled once into $LAKEHOUSE_HOME/faults/tools.
 *
 * <pre>
 * produce BOOTSTRAP TOPIC TYPE SUBJECT DATA    one binary-mode CloudEvent (DATA as is, valid JSON or not); prints its id
 * dump BOOTSTRAP TOPIC...                      every record from the beginning: topic, ce_id, ce_type, value (one line)
 * reset-earliest BOOTSTRAP GROUP TOPIC         moves an inactive group's offsets on TOPIC to the earliest ones
 * group BOOTSTRAP GROUP                        the group's state and member count, e.g. "STABLE 2"
 * lag BOOTSTRAP GROUP                          records the group has not committed yet, over all its partitions
 * </pre>
 */
public final class FaultEvents {

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "produce" -> produce(args[1], args[2], args[3], args[4], args[5]);
      case "dump" -> dump(args[1], List.of(args).subList(2, args.length));
      case "reset-earliest" -> resetEarliest(args[1], args[2], args[3]);
      case "lag" -> lag(args[1], args[2]);
      case "group" -> group(args[1], args[2]);
      default -> throw new IllegalArgumentException("unknown command " + args[0]);
    }
  }

  private static void produce(String bootstrap, String topic, String type, String subject, String data) {
    Properties props = new Properties();
    props.put("bootstrap.servers", bootstrap);
    props.put("acks", "all");
    UUID id = UUID.randomUUID();
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
      ProducerRecord<String, byte[]> record =
          new ProducerRecord<>(topic, subject, data.getBytes(StandardCharsets.UTF_8));
      header(record, "ce_specversion", "1.0");
      header(record, "ce_id", id.toString());
      header(record, "ce_source", "/lakehouse/fault-suite");
      header(record, "ce_type", type);
      header(record, "ce_subject", subject);
      header(record, "ce_time", Instant.now().toString());
      header(record, "content-type", "application/json");
      producer.send(record).get();
    } catch (Exception e) {
      throw new IllegalStateException("could not produce to " + topic, e);
    }
    System.out.println(id);
  }

  private static void header(ProducerRecord<String, byte[]> record, String key, String value) {
    record.headers().add(key, value.getBytes(StandardCharsets.UTF_8));
  }

  private static void dump(String bootstrap, List<String> topics) {
    Properties props = new Properties();
    props.put("bootstrap.servers", bootstrap);
    props.put("enable.auto.commit", "false");
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (String topic : topics) {
        consumer.partitionsFor(topic, Duration.ofSeconds(30))
            .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      Map<TopicPartition, Long> position = new HashMap<>();
      long deadline = System.currentTimeMillis() + 60_000;
      while (partitions.stream().anyMatch(p -> position.getOrDefault(p, consumer.position(p)) < end.get(p))) {
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException("did not reach the end of " + topics + " within 60 s");
        }
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
          System.out.println(record.topic() + "\t" + text(record, "ce_id") + "\t" + text(record, "ce_type") + "\t"
              + new String(record.value() == null ? new byte[0] : record.value(), StandardCharsets.UTF_8)
                  .replace('\n', ' '));
        }
        partitions.forEach(p -> position.put(p, consumer.position(p)));
      }
    }
  }

  private static String text(ConsumerRecord<String, byte[]> record, String key) {
    Header header = record.headers().lastHeader(key);
    return header == null ? "-" : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static void group(String bootstrap, String group) throws Exception {
    Properties props = new Properties();
    props.put("bootstrap.servers", bootstrap);
    try (Admin admin = Admin.create(props)) {
      var description = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
      System.out.println(description.groupState() + " " + description.members().size());
    }
  }

  private static void lag(String bootstrap, String group) throws Exception {
    Properties props = new Properties();
    props.put("bootstrap.servers", bootstrap);
    try (Admin admin = Admin.create(props)) {
      Map<TopicPartition, OffsetAndMetadata> committed =
          admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
      long lag = 0;
      for (var entry : admin.listOffsets(latest).all().get().entrySet()) {
        OffsetAndMetadata at = committed.get(entry.getKey());
        lag += entry.getValue().offset() - (at == null ? 0 : at.offset());
      }
      System.out.println(committed.isEmpty() ? -1 : lag);
    }
  }

  private static void resetEarliest(String bootstrap, String group, String topic) throws Exception {
    Properties props = new Properties();
    props.put("bootstrap.servers", bootstrap);
    try (Admin admin = Admin.create(props)) {
      int count = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
      Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
      for (int p = 0; p < count; p++) {
        earliest.put(new TopicPartition(topic, p), OffsetSpec.earliest());
      }
      Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
      admin.listOffsets(earliest).all().get()
          .forEach((partition, info) -> offsets.put(partition, new OffsetAndMetadata(info.offset())));
      admin.alterConsumerGroupOffsets(group, offsets).all().get();
    }
  }
}
