package io.lakehouse.engines.events;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.events.AccessEventHandler;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.lakehouse.common.security.Subject;
import io.lakehouse.engines.store.UserGroupsStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code access.user-groups-seen}: the groups of a user's platform token, as access-service saw them,
 * kept in {@link UserGroupsStore} so Trino's group file can list the members of granted groups.
 */
@ApplicationScoped
public class UserGroupsEvents implements AccessEventHandler {

    private final UserGroupsStore store;

    UserGroupsEvents(UserGroupsStore store) {
        this.store = store;
    }

    @Override
    public Set<EventType> types() {
        return Set.of(EventType.USER_GROUPS_SEEN);
    }

    @Override
    public Uni<Void> apply(LakehouseEvent event) {
        return store.record(Subject.normalizeUser(event.data().get("user").asText()), groups(event.data()),
                event.time());
    }

    private static List<String> groups(JsonNode data) {
        List<String> groups = new ArrayList<>();
        data.get("groups").forEach(g -> groups.add(g.asText()));
        return groups;
    }

    @Override
    public void check(LakehouseEvent event) {
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
