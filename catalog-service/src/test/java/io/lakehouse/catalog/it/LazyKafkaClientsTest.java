package io.lakehouse.catalog.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * The channels' Kafka clients are created lazily (common's {@code lazy-client}): start-up does not wait for each
 * consumer and dead-letter producer in turn, and a dead-letter producer exists only once something is dead-lettered.
 * A profile of its own gives this class a fresh application (no earlier test has dead-lettered anything in it).
 */
@QuarkusTest
@TestProfile(LazyKafkaClientsTest.FreshStart.class)
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class LazyKafkaClientsTest {

    public static final class FreshStart implements QuarkusTestProfile {
    }

    @Test
    void aDeadLetterProducerIsCreatedAtTheFirstDeadLetterAndTheRecordStillReachesItsTopic() {
        assertThat(deadLetterProducerThreads()).as("dead-letter producers before any failure").isEmpty();

        String key = "lazy-" + UUID.randomUUID() + "/x";
        try (EventWriter writer = new EventWriter(); EventReader dlq = new EventReader("lakehouse.instances.dlq")) {
            // No CloudEvents headers at all: malformed, straight to lakehouse.instances.dlq.
            writer.send("lakehouse.instances", key, new RecordHeaders(), "{}".getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(20)).until(() -> dlq.records(key).size() == 1);
        }
        assertThat(deadLetterProducerThreads()).singleElement().asString().contains("lakehouse-instances");
    }

    /** The network threads of the dead-letter producers (one per producer, named after its client id). */
    private static List<String> deadLetterProducerThreads() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.startsWith("kafka-producer-network-thread") && n.contains("dead-letter")).toList();
    }
}
