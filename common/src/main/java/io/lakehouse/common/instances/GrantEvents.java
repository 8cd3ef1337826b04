package io.lakehouse.common.instances;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.events.AccessEventHandler;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.lakehouse.common.security.Subject;
import io.smallrye.mutiny.Uni;
import java.util.Set;

/**
 * {@code access.grant-added} / {@code -removed} on a service's instances, kept in its {@link GrantStore}:
 * the projection the instances' access files (Trino's rules, a hub's sign-in list) are generated from.
 * The table's trigger wakes the reconciler (on the leader) at commit, so those files follow the grants. Only the grants
 * of kinds that {@link InstanceKind#readsGrants} are kept: those of any other kind would wake a pass with nothing to
 * do. Each event is applied once, its inbox row and the change in one statement
 * ({@link io.lakehouse.common.outbox.Inbox#applyOnce}). A service that keeps grants produces this handler with its kinds.
 */
public class GrantEvents implements AccessEventHandler {

    private static final String CONSUMER = "instance-grants";
    private static final Set<EventType> TYPES = Set.of(EventType.GRANT_ADDED, EventType.GRANT_REMOVED);

    private final GrantStore grants;
    private final InstanceKinds<?> kinds;

    /** Keeps the grants on instances of those of the service's {@code kinds} that read them. */
    public GrantEvents(GrantStore grants, InstanceKinds<?> kinds) {
        this.grants = grants;
        this.kinds = kinds;
    }

    @Override
    public Set<EventType> types() {
        return TYPES;
    }

    @Override
    public Uni<Void> apply(LakehouseEvent event) {
        JsonNode d = event.data();
        if (kinds.find(d.get("kind").asText()).filter(InstanceKind::readsGrants).isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String namespace = d.get("namespace").asText();
        String name = d.get("name").asText();
        Subject subject = new Subject(Subject.Type.fromWireName(d.get("subjectType").asText()), d.get("subject").asText());
        return event.type() == EventType.GRANT_ADDED
                ? grants.add(event.id(), CONSUMER, namespace, name, d.get("kind").asText(), subject)
                : grants.remove(event.id(), CONSUMER, namespace, name, subject);
    }

    @Override
    public void check(LakehouseEvent event) {
        JsonNode d = event.data();
        for (String field : new String[] {"namespace", "kind", "name", "subject"}) {
            if (!d.path(field).isTextual() || d.path(field).asText().isEmpty()) {
                throw new MalformedEventException("grant event without " + field);
            }
        }
        String type = d.path("subjectType").asText();
        if (!type.equals(Subject.Type.USER.wireName()) && !type.equals(Subject.Type.GROUP.wireName())) {
            throw new MalformedEventException("grant event with an unknown subjectType: " + type);
        }
    }
}
