package io.lakehouse.common.instances;

import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.kube.ReconcileLoop;
import io.lakehouse.common.outbox.Inbox;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * The OIDC clients access-service has made for the service's instances (their {@code <name>-oidc} Secret
 * exists; its table {@code oidc_clients}, fed by {@link OidcClientEvents}). Each event is applied once, in one
 * statement with its inbox row and the wake of the instance's pass ({@link Inbox#applyOnce}).
 */
@ApplicationScoped
public class OidcClientStore {

    /** The wake of the instance's pass, sent when the statement commits and only for an event not seen before. */
    private static final String WAKE = " SELECT pg_notify($%d, $%d) FROM first";
    private static final String PUT = ", put AS (INSERT INTO oidc_clients (namespace, name, kind, secret_name)"
            + " SELECT $4, $5, $6, $7 FROM first"
            + " ON CONFLICT (namespace, name) DO UPDATE SET kind = $6, secret_name = $7)"
            + WAKE.formatted(8, 9);
    /** The wake only for an instance still wanted: a deleting one's teardown does not read the client. */
    private static final String REMOVE = ", removed AS (DELETE FROM oidc_clients WHERE namespace = $4 AND name = $5"
            + " AND EXISTS (SELECT FROM first))" + WAKE.formatted(6, 7)
            + " WHERE EXISTS (SELECT FROM instances WHERE namespace = $4 AND name = $5 AND NOT deleting)";

    /** The consumers' connections: {@link OidcClientEvents} writes here. */
    private final Pool events;

    OidcClientStore(@ReactiveDataSource(IncomingEvents.POOL) Pool events) {
        this.events = events;
    }

    /** The client is there; wakes the instance's pass on the reconcile loop of {@code schema}. */
    public Uni<Void> put(UUID eventId, String consumer, String namespace, String name, String kind, String secretName,
            String schema) {
        return Inbox.applyOnce(events, eventId, consumer, PUT, namespace, name, kind, secretName,
                ReconcileLoop.channelOf(schema), wakePayload(namespace, name));
    }

    /**
     * The client is gone; wakes the instance's pass like {@link #put} unless it is being deleted (access-service
     * removes the client of an instance deleted: that wake made a teardown pass for nothing).
     */
    public Uni<Void> remove(UUID eventId, String consumer, String namespace, String name, String schema) {
        return Inbox.applyOnce(events, eventId, consumer, REMOVE, namespace, name,
                ReconcileLoop.channelOf(schema), wakePayload(namespace, name));
    }

    private static String wakePayload(String namespace, String name) {
        return namespace + "/" + name + ReconcileLoop.wakeSuffix();
    }
}
