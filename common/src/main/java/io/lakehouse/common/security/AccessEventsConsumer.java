package io.lakehouse.common.security;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Applies {@code access.member-set} / {@code access.member-removed} to the role projection's table,
 * exactly once per event (inbox row and change in one statement: {@link io.lakehouse.common.outbox.Inbox#applyOnce});
 * every replica's memory follows the table (see {@link RoleProjection}), so one consumer group per service is enough. Malformed records go to the dead-letter
 * topic through the channel's failure strategy; unknown types are acknowledged and ignored.
 */
@ApplicationScoped
public class AccessEventsConsumer {

    private static final String CONSUMER = "roles";

    private final IncomingEvents incoming;
    private final RoleProjection roles;

    AccessEventsConsumer(IncomingEvents incoming, RoleProjection roles) {
        this.incoming = incoming;
        this.roles = roles;
    }

    @Incoming("lakehouse-access")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return incoming.handle(message, AccessEventsConsumer::checkMembership,
                event -> isMembership(event.type()) ? apply(event) : Uni.createFrom().voidItem());
    }

    private Uni<Void> apply(LakehouseEvent event) {
        JsonNode data = event.data();
        String namespace = data.get("namespace").asText();
        Subject subject = new Subject(Subject.Type.fromWireName(data.get("subjectType").asText()),
                data.get("subject").asText());
        boolean set = event.type() == EventType.MEMBER_SET;
        Role role = set ? Role.fromWireName(data.get("role").asText()).orElseThrow() : null;
        return set ? roles.store(event.id(), CONSUMER, namespace, subject, role, event.time())
                : roles.remove(event.id(), CONSUMER, namespace, subject);
    }

    private static boolean isMembership(EventType type) {
        return type == EventType.MEMBER_SET || type == EventType.MEMBER_REMOVED;
    }

    private static void checkMembership(LakehouseEvent event) {
        if (!isMembership(event.type())) {
            return;
        }
        JsonNode d = event.data();
        if (!d.path("namespace").isTextual() || !d.path("subject").isTextual()
                || !("user".equals(d.path("subjectType").asText()) || "group".equals(d.path("subjectType").asText()))
                || event.type() == EventType.MEMBER_SET && Role.fromWireName(d.path("role").asText()).isEmpty()) {
            throw new MalformedEventException("membership event without namespace, subject, subjectType or role");
        }
    }
}
