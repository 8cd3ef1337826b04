package io.lakehouse.bench;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * How many records a service's consumer group has not committed yet, over every partition it has committed on. Once, a
 * catalog-service started right after an earlier run's stack went down was assigned its partitions 41 s after its
 * start, with 905 records waiting (not reproduced since: 7-10 s after a {@code kill -9}, with or without a broker
 * restart in between). A heap read before the consumers caught up held or missed up to a thousand fetched records, and
 * the SQL of their consumption fell on either side of the window.
 */
final class ConsumerLag implements AutoCloseable {

  private final Admin admin;

  ConsumerLag(String bootstrap) {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
    this.admin = Admin.create(props);
  }

  /** The records of {@code group}'s partitions past its committed offsets. */
  long of(String group) throws ExecutionException, InterruptedException {
    Map<TopicPartition, OffsetAndMetadata> committed =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    Map<TopicPartition, ListOffsetsResultInfo> ends = admin.listOffsets(committed.keySet().stream()
        .collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest()))).all().get();
    long lag = 0;
    for (Map.Entry<TopicPartition, OffsetAndMetadata> e : committed.entrySet()) {
      lag += e.getValue() == null ? 0 : Math.max(0, ends.get(e.getKey()).offset() - e.getValue().offset());
    }
    return lag;
  }

  /** Waits until {@code group} has committed everything written so far; false when not within {@code seconds}. */
  boolean awaitNone(String group, long seconds) throws ExecutionException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (of(group) > 0) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(250);
    }
    return true;
  }

  @Override
  public void close() {
    admin.close();
  }
}
