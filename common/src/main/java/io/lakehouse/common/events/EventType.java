package io.lakehouse.common.events;

import java.util.Arrays;
import java.util.Optional;

/**
 * Every event type of contract v1, with the topic it travels on. Defined once here: producers and
 * consumers never spell a type string themselves.
 */
public enum EventType {
    INSTANCE_REQUESTED(Topic.INSTANCES, "instance.requested"),
    INSTANCE_UPDATED(Topic.INSTANCES, "instance.updated"),
    INSTANCE_RUNNING(Topic.INSTANCES, "instance.running"),
    INSTANCE_READY(Topic.INSTANCES, "instance.ready"),
    INSTANCE_DEGRADED(Topic.INSTANCES, "instance.degraded"),
    INSTANCE_FAILED(Topic.INSTANCES, "instance.failed"),
    INSTANCE_DELETING(Topic.INSTANCES, "instance.deleting"),
    INSTANCE_DELETED(Topic.INSTANCES, "instance.deleted"),
    MEMBER_SET(Topic.ACCESS, "access.member-set"),
    MEMBER_REMOVED(Topic.ACCESS, "access.member-removed"),
    GRANT_ADDED(Topic.ACCESS, "access.grant-added"),
    GRANT_REMOVED(Topic.ACCESS, "access.grant-removed"),
    OIDC_CLIENT_READY(Topic.ACCESS, "access.oidc-client-ready"),
    OIDC_CLIENT_REMOVED(Topic.ACCESS, "access.oidc-client-removed"),
    USER_GROUPS_SEEN(Topic.ACCESS, "access.user-groups-seen"),
    SPARKJOB_SUBMITTED(Topic.SPARKJOBS, "sparkjob.submitted"),
    SPARKJOB_STATE_CHANGED(Topic.SPARKJOBS, "sparkjob.state-changed"),
    SPARKJOB_DELETED(Topic.SPARKJOBS, "sparkjob.deleted"),
    SPARKSCHEDULE_CREATED(Topic.SPARKJOBS, "sparkschedule.created"),
    SPARKSCHEDULE_UPDATED(Topic.SPARKJOBS, "sparkschedule.updated"),
    SPARKSCHEDULE_DELETED(Topic.SPARKJOBS, "sparkschedule.deleted"),
    AUDIT_RECORDED(Topic.AUDIT, "audit.recorded");

    private static final String PREFIX = "lakehouse.";
    private static final String VERSION_SUFFIX = ".v1";

    private final Topic topic;
    private final String shortName;

    EventType(Topic topic, String shortName) {
        this.topic = topic;
        this.shortName = shortName;
    }

    public Topic topic() {
        return topic;
    }

    public String shortName() {
        return shortName;
    }

    /** The CloudEvents {@code type} attribute, e.g. {@code lakehouse.instance.ready.v1}. */
    public String cloudEventType() {
        return PREFIX + shortName + VERSION_SUFFIX;
    }

    /** Unknown or newer types give empty: consumers acknowledge and ignore them. */
    public static Optional<EventType> fromCloudEventType(String type) {
        return Arrays.stream(values()).filter(t -> t.cloudEventType().equals(type)).findFirst();
    }
}
