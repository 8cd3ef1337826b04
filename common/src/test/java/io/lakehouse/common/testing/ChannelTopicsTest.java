package io.lakehouse.common.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A service under test reads, and dead-letters to, the test run's topics, never the contract's. */
class ChannelTopicsTest {

    @Test
    void aChannelIsPointedAtTheTestTwinsOfItsTopicAndDeadLetterTopic() {
        // common's META-INF/microprofile-config.properties: lakehouse.access, dead letters to lakehouse.access.dlq
        assertThat(ChannelTopics.testSettings("lakehouse-access")).isEqualTo(Map.of(
                "mp.messaging.incoming.lakehouse-access.topic", "test.lakehouse.access",
                "mp.messaging.incoming.lakehouse-access.dead-letter-queue.topic", "test.lakehouse.access.dlq"));
        assertThat(ChannelTopics.of("lakehouse-access")).containsExactly("test.lakehouse.access");
    }

    @Test
    void aChannelWithoutATopicSettingReadsTheTestTwinOfItsName() {
        assertThat(ChannelTopics.testSettings("orders")).isEqualTo(Map.of(
                "mp.messaging.incoming.orders.topic", "test.orders"));
    }
}
