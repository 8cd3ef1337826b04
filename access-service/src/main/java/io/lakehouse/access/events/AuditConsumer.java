package io.lakehouse.access.events;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.access.store.AuditEntry;
import io.lakehouse.access.store.AuditStore;
import io.lakehouse.common.events.AccessEventObserver;
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
 * Appends {@code audit.recorded} (every service's mutating API calls) and the lifecycle events of
 * {@code lakehouse.sparkjobs}, {@code lakehouse.instances} and {@code lakehouse.access} to the audit log, once per
 * event id. The first two come through channel {@code audit-feed}; the last two from the service's consumers of those
 * topics ({@link InstanceEventsConsumer}, common's access consumer): a consumer group of the audit log's own would
 * fetch and acknowledge each of their events a second time.
 */
@ApplicationScoped
public class AuditConsumer implements AccessEventObserver {

    private final IncomingEvents incoming;
    private final AuditStore store;

    AuditConsumer(IncomingEvents incoming, AuditStore store) {
        this.incoming = incoming;
        this.store = store;
    }

    @Incoming("audit-feed")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return incoming.handle(message, AuditConsumer::check, this::record);
    }

    @Override
    public Uni<Void> observe(LakehouseEvent event) {
        return record(event);
    }

    /** Appends the event to the audit log unless its id is there already. */
    Uni<Void> record(LakehouseEvent event) {
        return store.append(event.id(), entry(event));
    }

    private static AuditEntry entry(LakehouseEvent event) {
        JsonNode d = event.data();
        String namespace = text(d, "namespace");
        if (event.type() == EventType.AUDIT_RECORDED) {
            return new AuditEntry(0, event.time(), event.type().shortName(), namespace, text(d, "who"),
                    text(d, "what"), text(d, "target"), d.path("outcome").isInt() ? d.get("outcome").asInt() : null,
                    text(d, "requestId"));
        }
        String actor = d.path("createdBy").isTextual() ? d.get("createdBy").asText() : event.source();
        return new AuditEntry(0, event.time(), event.type().shortName(), namespace, actor, action(event),
                event.subject(), null, null);
    }

    /** The event type; a job's state change names the state it reached, which its type does not. */
    private static String action(LakehouseEvent event) {
        String state = text(event.data(), "state");
        return event.type() == EventType.SPARKJOB_STATE_CHANGED && state != null
                ? event.type().shortName() + " to " + state
                : event.type().shortName();
    }

    private static String text(JsonNode d, String field) {
        return d.path(field).isTextual() ? d.get(field).asText() : null;
    }

    private static void check(LakehouseEvent event) {
        JsonNode d = event.data();
        if (event.type() == EventType.AUDIT_RECORDED && (!d.path("what").isTextual() || !d.path("target").isTextual())) {
            throw new MalformedEventException("audit event without what or target");
        }
    }
}
