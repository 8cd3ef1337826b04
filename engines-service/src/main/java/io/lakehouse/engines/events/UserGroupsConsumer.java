package io.lakehouse.engines.events;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.lakehouse.common.security.Subject;
import io.lakehouse.engines.store.UserGroupsStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * {@code access.user-groups-seen}: the groups of a user's platform token, as access-service saw them,
 * kept in {@link UserGroupsStore} so Trino's group file can list the members of granted groups.
 */
@ApplicationScoped
public class UserGroupsConsumer {

    private final IncomingEvents incoming;
    private final UserGroupsStore store;

    UserGroupsConsumer(IncomingEvents incoming, UserGroupsStore store) {
        this.incoming = incoming;
        this.store = store;
    }

    @Incoming("user-groups")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return incoming.handle(message, UserGroupsConsumer::check, event -> event.type() != EventType.USER_GROUPS_SEEN
                ? Uni.createFrom().voidItem()
                : store.record(Subject.normalizeUser(event.data().get("user").asText()), groups(event.data()),
                        event.time()));
    }

    private static List<String> groups(JsonNode data) {
        List<String> groups = new ArrayList<>();
        data.get("groups").forEach(g -> groups.add(g.asText()));
        return groups;
    }

    private static void check(LakehouseEvent event) {
        if (event.type() != EventType.USER_GROUPS_SEEN) {
            return;
        }
        JsonNode d = event.data();
        if (!d.path("user").isTextual() || d.path("user").asText().isEmpty()) {
            throw new MalformedEventException("user-groups-seen event without user");
        }
        if (!d.path("groups").isArray()) {
            throw new MalformedEventException("user-groups-seen event without a groups array");
        }
        d.get("groups").forEach(g -> {
            if (!g.isTextual() || g.asText().isEmpty()) {
                throw new MalformedEventException("user-groups-seen event with a group that is not a name");
            }
        });
    }
}
