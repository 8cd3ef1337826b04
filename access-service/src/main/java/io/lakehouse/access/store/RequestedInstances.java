package io.lakehouse.access.store;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.outbox.Inbox;
import io.lakehouse.common.outbox.Outbox;
import io.lakehouse.common.security.Subject;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * An {@code instance.requested} of a kind that takes grants, projected once per event in one statement (one round trip
 * instead of a transaction's eight): the inbox row; the instance ({@code instances}); when the instance is new and has a
 * deployer, the deployer's grant and its {@code access.grant-added}; when the kind wants an OIDC client, the client's
 * intent ({@code oidc_clients}: Pending until the worker has made it; requested again with another uid while the
 * previous instance's client was still being removed, that uid is kept as retired, its client still ours).
 */
@ApplicationScoped
public class RequestedInstances {

    private static final int EVENT_PARAMS = 10; // $10 on: the grant's event (Outbox.values)
    private static final int EVENT_COLUMNS = Outbox.COLUMNS.split(",").length;

    private static final String CHANGE = ", inst AS (INSERT INTO instances (namespace, kind, name, created_by)"
            + " SELECT $4, $5, $6, $7 FROM first ON CONFLICT DO NOTHING RETURNING 1)"
            + ", granted AS (INSERT INTO grants (namespace, kind, name, subject_type, subject)"
            + " SELECT $4, $5, $6, 'user', $7 FROM inst WHERE $7::text IS NOT NULL ON CONFLICT DO NOTHING RETURNING 1)"
            + ", " + Outbox.appendCte("announced", "granted", EVENT_PARAMS)
            + ", wanted AS (INSERT INTO oidc_clients (namespace, kind, name, client_id, instance_uid)"
            + " SELECT $4, $5, $6, $8, COALESCE($9::text, gen_random_uuid()::text) FROM first WHERE $8::text IS NOT NULL"
            + " ON CONFLICT (namespace, kind, name) DO UPDATE SET wanted = TRUE, updated_at = now(),"
            + " retired_uid = CASE WHEN $9::text IS NOT NULL AND $9::text <> oidc_clients.instance_uid"
            + " THEN oidc_clients.instance_uid ELSE oidc_clients.retired_uid END,"
            + " instance_uid = COALESCE($9::text, oidc_clients.instance_uid)"
            + " WHERE NOT oidc_clients.wanted)"
            + " SELECT count(*) FROM first";

    /** The consumer's connections ({@code InstanceEventsConsumer}). */
    private final Pool events;

    RequestedInstances(@ReactiveDataSource(IncomingEvents.POOL) Pool events) {
        this.events = events;
    }

    /**
     * @param deployer the user who requested it, or null
     * @param grantAdded the deployer's {@code access.grant-added}, appended only with the grant; null without a deployer
     * @param clientId the OIDC client the kind wants, or null when it wants none
     * @param uid the instance's uid (the mark of its Keycloak client), or null: one is generated
     */
    public Uni<Void> record(UUID eventId, String consumer, InstanceKey key, Subject deployer, LakehouseEvent grantAdded,
            String clientId, String uid) {
        List<Object> args = new ArrayList<>(List.of(key.namespace(), key.kind(), key.name()));
        args.add(deployer == null ? null : deployer.name());
        args.add(clientId);
        args.add(uid);
        args.addAll(grantAdded == null ? Collections.nCopies(EVENT_COLUMNS, null) : Outbox.values(grantAdded));
        return Inbox.applyOnce(events, eventId, consumer, CHANGE, args.toArray());
    }
}
