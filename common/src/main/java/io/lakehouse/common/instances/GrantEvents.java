package io.lakehouse.common.instances;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.lakehouse.common.security.Subject;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * {@code access.grant-added} / {@code -removed} on a service's instances, kept in its {@link GrantStore}:
 * the projection the instances' access files (Trino's rules, a hub's sign-in list) are generated from.
 * The table's trigger wakes the reconciler (on the leader) at commit, so those files follow the grants. Each event
 * is applied once, its inbox row and the change in one statement ({@link io.lakehouse.common.outbox.Inbox#applyOnce}).
 * Each service's consumer names its channel and its kinds.
 */
@ApplicationScoped
public class GrantEvents {

    private static final String CONSUMER = "instance-grants";

    private final IncomingEvents incoming;
    private final GrantStore grants;

    GrantEvents(IncomingEvents incoming, GrantStore grants) {
        this.incoming = incoming;
        this.grants = grants;
    }

    /** Takes {@code message}, keeping grants on instances whose kind {@code ourKind} accepts. */
    public CompletionStage<Void> consume(Message<byte[]> message, Predicate<String> ourKind) {
        return incoming.handle(message, GrantEvents::check,
                event -> isGrant(event) && ourKind.test(event.data().path("kind").asText())
                        ? apply(event) : Uni.createFrom().voidItem());
    }

    private Uni<Void> apply(LakehouseEvent event) {
        JsonNode d = event.data();
        String namespace = d.get("namespace").asText();
        String name = d.get("name").asText();
        Subject subject = new Subject(Subject.Type.fromWireName(d.get("subjectType").asText()), d.get("subject").asText());
        return event.type() == EventType.GRANT_ADDED
                ? grants.add(event.id(), CONSUMER, namespace, name, d.get("kind").asText(), subject)
                : grants.remove(event.id(), CONSUMER, namespace, name, subject);
    }

    private static boolean isGrant(LakehouseEvent event) {
        return event.type() == EventType.GRANT_ADDED || event.type() == EventType.GRANT_REMOVED;
    }

    private static void check(LakehouseEvent event) {
        if (!isGrant(event)) {
            return;
        }
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
