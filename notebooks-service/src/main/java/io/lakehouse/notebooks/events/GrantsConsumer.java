package io.lakehouse.notebooks.events;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.lakehouse.common.outbox.Inbox;
import io.lakehouse.common.security.Subject;
import io.lakehouse.notebooks.kinds.jupyterhub.HubInstance;
import io.lakehouse.notebooks.store.GrantStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * {@code access.grant-added} / {@code -removed} on our hubs: the projection the hub's
 * {@code <name>-access} (who may sign in) is generated from. The table's trigger wakes the reconciler
 * (on the leader) at commit, so sign-in follows the grants without restarting the hub.
 */
@ApplicationScoped
public class GrantsConsumer {

    private static final String CONSUMER = "instance-grants";

    private final IncomingEvents incoming;
    private final Pool pool;
    private final GrantStore grants;

    GrantsConsumer(IncomingEvents incoming, Pool pool, GrantStore grants) {
        this.incoming = incoming;
        this.pool = pool;
        this.grants = grants;
    }

    @Incoming("instance-grants")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return incoming.handle(message, GrantsConsumer::check,
                event -> isOurs(event) ? apply(event) : Uni.createFrom().voidItem());
    }

    private Uni<Void> apply(LakehouseEvent event) {
        JsonNode d = event.data();
        String namespace = d.get("namespace").asText();
        String name = d.get("name").asText();
        Subject subject = new Subject(Subject.Type.fromWireName(d.get("subjectType").asText()), d.get("subject").asText());
        return pool.withTransaction(tx -> Inbox.firstDelivery(tx, event.id(), CONSUMER).chain(first -> {
                    if (!first) {
                        return Uni.createFrom().voidItem();
                    }
                    return event.type() == EventType.GRANT_ADDED
                            ? grants.add(tx, namespace, name, d.get("kind").asText(), subject)
                            : grants.remove(tx, namespace, name, subject);
                }));
    }

    private static boolean isGrant(LakehouseEvent event) {
        return event.type() == EventType.GRANT_ADDED || event.type() == EventType.GRANT_REMOVED;
    }

    private static boolean isOurs(LakehouseEvent event) {
        return isGrant(event) && HubInstance.KIND.equals(event.data().path("kind").asText());
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
