package io.lakehouse.access.events;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.access.domain.InstanceKinds;
import io.lakehouse.access.domain.Subjects;
import io.lakehouse.access.oidc.OidcClientSpec;
import io.lakehouse.access.oidc.OidcClientWorker;
import io.lakehouse.access.store.DeletedInstances;
import io.lakehouse.access.store.RequestedInstances;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.lakehouse.common.security.Subject;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Appends every event of {@code lakehouse.instances} to the audit log ({@link AuditConsumer}) and projects the
 * topic for the kinds that take grants: {@code instance.requested}
 * makes the instance exist and grants its deployer, in one statement ({@link RequestedInstances});
 * {@code instance.deleted} removes it and its grants (each with {@code access.grant-removed}), in one statement too
 * ({@link DeletedInstances}). Other lifecycle events change nothing here.
 * The same statement records whether the instance wants an OIDC client; the worker makes or removes it after
 * the commit. The forward-auth index of every replica follows the tables (see GrantIndex).
 */
@ApplicationScoped
public class InstanceEventsConsumer {

    private static final String CONSUMER = "instances";

    private final IncomingEvents incoming;
    private final RequestedInstances requests;
    private final DeletedInstances deletions;
    private final AccessEvents events;
    private final OidcClientWorker oidcWorker;
    private final AuditConsumer audit;

    InstanceEventsConsumer(IncomingEvents incoming, RequestedInstances requests, DeletedInstances deletions,
            AccessEvents events, OidcClientWorker oidcWorker, AuditConsumer audit) {
        this.incoming = incoming;
        this.audit = audit;
        this.requests = requests;
        this.deletions = deletions;
        this.events = events;
        this.oidcWorker = oidcWorker;
    }

    @Incoming("lakehouse-instances")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return incoming.handle(message, InstanceEventsConsumer::check,
                event -> project(event).chain(() -> audit.record(event)));
    }

    private Uni<Void> project(LakehouseEvent event) {
        InstanceKey key = keyOf(event.data());
        if (!InstanceKinds.takesGrants(key.kind())) {
            return Uni.createFrom().voidItem();
        }
        if (event.type() == EventType.INSTANCE_REQUESTED) {
            return requested(event, key);
        }
        return event.type() == EventType.INSTANCE_DELETED ? deleted(event, key) : Uni.createFrom().voidItem();
    }

    private Uni<Void> requested(LakehouseEvent event, InstanceKey key) {
        Subject deployer = Subjects.parse("user:" + event.data().path("createdBy").asText("")).orElse(null);
        return requests.record(event.id(), CONSUMER, key, deployer,
                        deployer == null ? null : events.grantAdded(key, deployer),
                        OidcClientSpec.wanted(key.kind()) ? OidcClientSpec.clientId(key) : null, uidOf(event.data()))
                .invoke(() -> oidcWorker.queue(key)); // a redelivery's wake finds the client as it is
    }

    private Uni<Void> deleted(LakehouseEvent event, InstanceKey key) {
        return deletions.record(event.id(), CONSUMER, key, events.grantsRemoved(key))
                .invoke(() -> oidcWorker.queue(key)); // a redelivery's wake finds the client as it is
    }

    /** The instance's uid (the mark of its Keycloak client), when the event carries one. */
    private static String uidOf(JsonNode d) {
        return d.path("uid").isTextual() ? d.get("uid").asText() : null;
    }

    private static InstanceKey keyOf(JsonNode d) {
        return new InstanceKey(d.get("namespace").asText(), d.get("kind").asText(), d.get("name").asText());
    }

    private static void check(LakehouseEvent event) {
        JsonNode d = event.data();
        if (!d.path("namespace").isTextual() || !d.path("kind").isTextual() || !d.path("name").isTextual()) {
            throw new MalformedEventException("instance event without namespace, kind or name");
        }
    }
}
