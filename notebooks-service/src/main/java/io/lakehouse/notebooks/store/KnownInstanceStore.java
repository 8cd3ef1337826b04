package io.lakehouse.notebooks.store;

import io.lakehouse.notebooks.kinds.jupyterhub.Bindings;
import io.lakehouse.notebooks.kinds.jupyterhub.KnownInstance;
import io.lakehouse.notebooks.kinds.jupyterhub.LakehouseRefs;
import io.lakehouse.notebooks.kinds.jupyterhub.StaleVariables;
import io.lakehouse.notebooks.reconcile.NotebookContext;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    KnownInstanceStore(Pool pool) {
        this.pool = pool;
    }

    public static boolean referenced(String kind) {
        return FIELD.containsKey(kind);
    }

    public Uni<Optional<KnownInstance>> find(SqlConnection tx, String namespace, String kind, String name) {
        return tx.preparedQuery("SELECT " + COLUMNS + " FROM known_instances WHERE namespace = $1 AND kind = $2"
                        + " AND name = $3")
                .execute(Tuple.of(namespace, kind, name))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(map(rows.iterator().next())));
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

    /** Saves the instance's latest state; returns the keys of the hubs that reference it. */
    public Uni<List<String>> save(SqlConnection tx, KnownInstance k) {
        return tx.preparedQuery("INSERT INTO known_instances (namespace, kind, name, phase, deleting,"
                        + " internal_endpoint, secret, changed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                        + " ON CONFLICT (namespace, kind, name) DO UPDATE SET phase = $4, deleting = $5,"
                        + " internal_endpoint = $6, secret = $7, changed_at = $8")
                .execute(Tuple.tuple().addString(k.namespace()).addString(k.kind()).addString(k.name())
                        .addString(k.phase()).addBoolean(k.deleting()).addString(k.internalEndpoint())
                        .addString(k.secret()).addOffsetDateTime(k.changedAt().atOffset(ZoneOffset.UTC)))
                .chain(() -> tx.preparedQuery("SELECT namespace || '/' || name FROM instances WHERE namespace = $1"
                                + " AND spec -> 'lakehouse' ->> '" + FIELD.get(k.kind()) + "' = $2")
                        .execute(Tuple.of(k.namespace(), k.name())))
                .map(rows -> {
                    List<String> keys = new ArrayList<>();
                    rows.forEach(r -> keys.add(r.getString(0)));
                    return keys;
                });
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
