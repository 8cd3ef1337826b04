package io.lakehouse.engines.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.InstanceApi;
import java.time.Instant;
import java.util.UUID;
import java.util.stream.Stream;

/** Calls as a user would make them, and the events the other services would publish ({@link InstanceApi}). */
public final class Api extends InstanceApi {

    private Api() {}

    /** What access-service publishes when it sees {@code user}'s token of {@code seenAt} carry {@code groups}. */
    public static LakehouseEvent groupsSeen(String user, Instant seenAt, String... groups) {
        ObjectNode data = new ObjectMapper().createObjectNode().put("user", user);
        Stream.of(groups).forEach(data.putArray("groups")::add);
        return new LakehouseEvent(UUID.randomUUID(), "/lakehouse/access-service", EventType.USER_GROUPS_SEEN,
                "user:" + user, seenAt, data);
    }
}
