package io.lakehouse.notebooks.store;

import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.kube.ReconcileLoop;
import io.lakehouse.common.outbox.Inbox;
import io.lakehouse.notebooks.kinds.jupyterhub.Bindings;
import io.lakehouse.notebooks.kinds.jupyterhub.KnownInstance;
import io.lakehouse.notebooks.kinds.jupyterhub.LakehouseRefs;
import io.lakehouse.notebooks.kinds.jupyterhub.StaleVariables;
import io.lakehouse.notebooks.reconcile.NotebookContext;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The instances hubs may reference (table {@code known_instances}), as their events describe them. */
@ApplicationScoped
public class KnownInstanceStore implements NotebookContext.BoundInstances {

    /** The spec field of a hub that references each kind. */
    static final Map<String, String> FIELD = Map.of(KnownInstance.CATALOG, "catalog", KnownInstance.TRINO, "trino",
            KnownInstance.SPARK_CONNECT, "sparkConnect", KnownInstance.MLFLOW, "mlflow");
    private static final Duration DB_TIMEOUT = Duration.ofSeconds(10);
    // Named, not *: statements stay prepared on their connection, and a column added by a newer version's
    // migration would change the result type of a prepared SELECT * ("cached plan must not change result type").
    private static final String COLUMNS = "namespace, kind, name, phase, deleting, internal_endpoint, secret, changed_at";

    private final Pool pool;
    /** The consumers' connections: {@link #apply} runs in the known instances' consumer. */
    private final Pool events;
    /** The channel of this service's reconcile loop, which the hubs' wakes notify. */
    private final String wakeChannel;

    KnownInstanceStore(Pool pool, @ReactiveDataSource(IncomingEvents.POOL) Pool events, ServiceSettings service) {
        this.pool = pool;
        this.events = events;
        this.wakeChannel = ReconcileLoop.channelOf(service.schema());
    }

    public static boolean referenced(String kind) {
        return FIELD.containsKey(kind);
    }

    /** Every known instance of the namespace, by kind and name. */
    public Uni<Map<LakehouseRefs.Ref, KnownInstance>> inNamespace(String namespace) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM known_instances WHERE namespace = $1").execute(Tuple.of(namespace))
                .map(rows -> {
                    Map<LakehouseRefs.Ref, KnownInstance> all = new HashMap<>();
                    rows.forEach(r -> {
                        KnownInstance k = map(r);
                        all.put(new LakehouseRefs.Ref(k.kind(), k.name()), k);
                    });
                    return all;
                });
    }

    /**
     * Merges what an event says of an instance into what is known, once per event, and wakes the hubs that
     * reference it: one statement (the inbox row, the upsert, the hubs' NOTIFY at commit) where a transaction took
     * seven round trips. Events of one instance arrive in order (one partition per subject).
     *
     * @param appears whether the event is the instance's (re)appearance ({@link KnownInstance#appears})
     */
    public Uni<Void> apply(UUID eventId, String consumer, KnownInstance k, boolean appears) {
        return Inbox.applyOnce(events, eventId, consumer,
                        ", saved AS (INSERT INTO known_instances (" + COLUMNS + ")"
                                + " SELECT $4, $5, $6, $7, $8, $9, $10, $11 FROM first"
                                + " ON CONFLICT (namespace, kind, name) DO UPDATE SET phase = EXCLUDED.phase,"
                                + " deleting = EXCLUDED.deleting, secret = EXCLUDED.secret,"
                                + " internal_endpoint = COALESCE(EXCLUDED.internal_endpoint,"
                                + " known_instances.internal_endpoint),"
                                + " changed_at = CASE WHEN $12 OR known_instances.deleting <> EXCLUDED.deleting"
                                + " THEN EXCLUDED.changed_at ELSE known_instances.changed_at END RETURNING 1)"
                                + " SELECT pg_notify($13, namespace || '/' || name || $14) FROM instances"
                                + " WHERE namespace = $4 AND spec -> 'lakehouse' ->> '" + FIELD.get(k.kind()) + "' = $6"
                                + " AND EXISTS (SELECT FROM saved)",
                        k.namespace(), k.kind(), k.name(), k.phase(), k.deleting(), k.internalEndpoint(), k.secret(),
                        k.changedAt().atOffset(ZoneOffset.UTC), appears, wakeChannel, ReconcileLoop.wakeSuffix());
    }

    /** Called by the reconciler (a worker thread) for each pass over a hub. */
    @Override
    public Bindings bindings(String namespace, LakehouseRefs refs) {
        Map<LakehouseRefs.Ref, KnownInstance> known = inNamespace(namespace).await().atMost(DB_TIMEOUT);
        return KnownInstance.bindings(refs == null ? LakehouseRefs.NONE : refs,
                ref -> Optional.ofNullable(known.get(ref)));
    }

    @Override
    public Map<String, StaleVariables.Binding> states(String namespace, LakehouseRefs refs) {
        Map<LakehouseRefs.Ref, KnownInstance> known = inNamespace(namespace).await().atMost(DB_TIMEOUT);
        Map<String, StaleVariables.Binding> states = new HashMap<>();
        (refs == null ? LakehouseRefs.NONE : refs).set().forEach((field, ref) -> {
            KnownInstance k = known.get(ref);
            states.put(field, k == null ? new StaleVariables.Binding(false, null)
                    : new StaleVariables.Binding(!k.deleting(), k.changedAt()));
        });
        return states;
    }

    private static KnownInstance map(Row r) {
        return new KnownInstance(r.getString("namespace"), r.getString("kind"), r.getString("name"),
                r.getString("phase"), r.getBoolean("deleting"), r.getString("internal_endpoint"), r.getString("secret"),
                r.getOffsetDateTime("changed_at").toInstant());
    }
}
