package io.lakehouse.common.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** Commits a new consumer group's offsets at the topics' current end, before the group first reads. */
final class TopicPositions {

    private TopicPositions() {}

    static void startAtEnd(String group, List<String> topics) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestServers.kafka()))) {
            Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
            for (String topic : topics) {
                TopicDescription description;
                try {
                    description = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS)
                            .get(topic);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                        continue; // created later: the group starts at its beginning, which is its end
                    }
                    throw e;
                }
                description.partitions().forEach(p -> partitions.put(new TopicPartition(topic, p.partition()),
                        OffsetSpec.latest()));
            }
            if (partitions.isEmpty()) {
                return;
            }
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                    admin.listOffsets(partitions).all().get(10, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            ends.forEach((tp, info) -> offsets.put(tp, new OffsetAndMetadata(info.offset())));
            admin.alterConsumerGroupOffsets(group, offsets).all().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot place consumer group " + group + " at the end of " + topics, e);
        }
    }
}
