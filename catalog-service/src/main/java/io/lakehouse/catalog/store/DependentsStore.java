package io.lakehouse.catalog.store;

import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.outbox.Inbox;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * Instances of other services that use a catalog, projected from their lifecycle events: each change once per event,
 * its inbox row and the change in one statement ({@link Inbox#applyOnce}).
 */
@ApplicationScoped
public class DependentsStore {

    /**
     * {@code kind/name} of every instance using the catalog of an {@code instances} row, as the {@code text[]}
     * the instance store reads with the row ({@code InstanceStore.read}: a single GET is one statement).
     */
    public static final String USED_BY = "ARRAY(SELECT d.kind || '/' || d.name FROM catalog_dependents d"
            + " WHERE d.namespace = instances.namespace AND d.catalog = instances.name ORDER BY d.kind, d.name)";

    /** The consumer's connections ({@code DependentsConsumer}). */
    private final Pool events;

    DependentsStore(@ReactiveDataSource(IncomingEvents.POOL) Pool events) {
        this.events = events;
    }

    public Uni<Void> upsert(UUID eventId, String consumer, String namespace, String catalog, String kind, String name) {
        return Inbox.applyOnce(events, eventId, consumer,
                "INSERT INTO catalog_dependents (namespace, catalog, kind, name) SELECT $4, $5, $6, $7 FROM first"
                        + " ON CONFLICT (namespace, kind, name) DO UPDATE SET catalog = EXCLUDED.catalog",
                namespace, catalog, kind, name);
    }

    public Uni<Void> remove(UUID eventId, String consumer, String namespace, String kind, String name) {
        return Inbox.applyOnce(events, eventId, consumer,
                "DELETE FROM catalog_dependents WHERE namespace = $4 AND kind = $5 AND name = $6"
                        + " AND EXISTS (SELECT FROM first)",
                namespace, kind, name);
    }
}
