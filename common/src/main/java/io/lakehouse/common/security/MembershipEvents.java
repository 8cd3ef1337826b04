package io.lakehouse.common.security;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.events.AccessEventHandler;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * {@code access.member-set} / {@code access.member-removed} into the role projection's table, exactly once per
 * event (inbox row and change in one statement: {@link io.lakehouse.common.outbox.Inbox#applyOnce}); every
 * replica's memory follows the table (see {@link RoleProjection}), so one consumer group per service is enough.
 */
@ApplicationScoped
public class MembershipEvents implements AccessEventHandler {

    private static final String CONSUMER = "roles";
    private static final Set<EventType> TYPES = Set.of(EventType.MEMBER_SET, EventType.MEMBER_REMOVED);

    private final RoleProjection roles;

    MembershipEvents(RoleProjection roles) {
        this.roles = roles;
    }

    @Override
    public Set<EventType> types() {
        return TYPES;
    }

    @Override
    public void check(LakehouseEvent event) {
        JsonNode d = event.data();
        if (!d.path("namespace").isTextual() || !d.path("subject").isTextual()
                || !("user".equals(d.path("subjectType").asText()) || "group".equals(d.path("subjectType").asText()))
                || event.type() == EventType.MEMBER_SET && Role.fromWireName(d.path("role").asText()).isEmpty()) {
            throw new MalformedEventException("membership event without namespace, subject, subjectType or role");
        }
    }

    @Override
    public Uni<Void> apply(LakehouseEvent event) {
        JsonNode data = event.data();
        String namespace = data.get("namespace").asText();
        Subject subject = new Subject(Subject.Type.fromWireName(data.get("subjectType").asText()),
                data.get("subject").asText());
        return event.type() == EventType.MEMBER_SET
                ? roles.store(event.id(), CONSUMER, namespace, subject,
                        Role.fromWireName(data.get("role").asText()).orElseThrow(), event.time())
                : roles.remove(event.id(), CONSUMER, namespace, subject);
    }
}
