package io.lakehouse.common.events;

/** The Kafka topics of the event contract (docs/events.md). */
public enum Topic {
    INSTANCES("lakehouse.instances"),
    ACCESS("lakehouse.access"),
    SPARKJOBS("lakehouse.sparkjobs"),
    AUDIT("lakehouse.audit");

    private final String topicName;

    Topic(String topicName) {
        this.topicName = topicName;
    }

    public String topicName() {
        return topicName;
    }

    public String deadLetterTopicName() {
        return topicName + ".dlq";
    }
}
