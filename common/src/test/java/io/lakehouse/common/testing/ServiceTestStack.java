package io.lakehouse.common.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Points a service under test at the real PostgreSQL and Kafka: its own schema, cleaned at start; the
 * test run's topics ({@link TestTopics}) for what it publishes and reads, so that a local stack on the same broker
 * and the tests never consume each other's events; and a consumer group of its own for every incoming channel,
 * placed at the topics' current end: a test sees the events published from its start on, not the broker's whole
 * history (which a used local broker makes long). A service's test stack extends it and adds its token key and settings.
 */
public abstract class ServiceTestStack implements QuarkusTestResourceLifecycleManager {

    private final String service;
    private final String schema;
    private final List<String> channels;

    protected ServiceTestStack(String service, String schema, List<String> channels) {
        this.service = service;
        this.schema = schema;
        this.channels = List.copyOf(channels);
    }

    /** Settings of this service's tests on top of the common ones. */
    protected abstract Map<String, String> serviceProperties();

    @Override
    public Map<String, String> start() {
        TestServers.requireReachable();
        String group = service + "-test-" + UUID.randomUUID();
        Map<String, String> props = new HashMap<>();
        for (String channel : channels) {
            String channelGroup = group + "-" + channel;
            props.put("mp.messaging.incoming." + channel + ".group.id", channelGroup);
            props.putAll(ChannelTopics.testSettings(channel));
            TopicPositions.startAtEnd(channelGroup, ChannelTopics.of(channel));
        }
        props.put("lakehouse.service.outbox.topic-prefix", TestTopics.PREFIX);
        props.put("quarkus.datasource.reactive.url", TestServers.pgUrl() + "?search_path=" + schema);
        props.put("quarkus.datasource.jdbc.url", "jdbc:" + TestServers.pgUrl() + "?currentSchema=" + schema);
        props.put("kafka.bootstrap.servers", TestServers.kafka());
        props.put("quarkus.flyway.clean-at-start", "true");
        props.put("quarkus.flyway.clean-disabled", "false");
        props.putAll(serviceProperties());
        return props;
    }

    @Override
    public void stop() {
        // The servers belong to the test command, which stops them.
    }
}
