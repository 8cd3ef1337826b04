package io.lakehouse.common.instances;

import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.outbox.Inbox;
import io.lakehouse.common.security.Subject;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * Who holds a grant on each of the service's instances (its table {@code instance_grants}), as
 * access-service publishes it ({@link GrantEvents}).
 */
@ApplicationScoped
public class GrantStore {

    /** The consumers' connections: {@link #add} and {@link #remove} run in {@link GrantEvents}. */
    private final Pool events;

    GrantStore(@ReactiveDataSource(IncomingEvents.POOL) Pool events) {
        this.events = events;
    }

    /** Adds a grant once per event ({@link Inbox#applyOnce}: inbox row and change in one statement). */
    public Uni<Void> add(UUID eventId, String consumer, String namespace, String name, String kind, Subject subject) {
        return Inbox.applyOnce(events, eventId, consumer,
                "INSERT INTO instance_grants (namespace, name, kind, subject_type, subject)"
                        + " SELECT $4, $5, $6, $7, $8 FROM first ON CONFLICT DO NOTHING",
                namespace, name, kind, subject.type().wireName(), subject.name());
    }

    /** Removes a grant once per event, like {@link #add}. */
    public Uni<Void> remove(UUID eventId, String consumer, String namespace, String name, Subject subject) {
        return Inbox.applyOnce(events, eventId, consumer,
                "DELETE FROM instance_grants WHERE namespace = $4 AND name = $5 AND subject_type = $6"
                        + " AND subject = $7 AND EXISTS (SELECT FROM first)",
                namespace, name, subject.type().wireName(), subject.name());
    }
}
