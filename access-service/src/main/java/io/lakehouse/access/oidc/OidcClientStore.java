package io.lakehouse.access.oidc;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.outbox.Outbox;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Table {@code oidc_clients}: the intent (wanted or not) and the last known state of each client. */
@ApplicationScoped
public class OidcClientStore {

    private static final String COLUMNS =
            "namespace, kind, name, client_id, wanted, state, reason, updated_at, instance_uid, retired_uid";
    private static final String BY_KEY = " WHERE namespace = $1 AND kind = $2 AND name = $3";
    private static final String READY = "UPDATE oidc_clients SET state = 'Ready', reason = NULL, updated_at = now()"
            + BY_KEY + " AND wanted AND (state <> 'Ready' OR reason IS NOT NULL)";
    private static final String UNWANTED_GONE = "DELETE FROM oidc_clients" + BY_KEY + " AND NOT wanted";

    private final Pool pool;

    OidcClientStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Optional<OidcClientRecord>> find(InstanceKey key) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM oidc_clients" + BY_KEY).execute(key(key))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(record(rows.iterator().next())));
    }

    public Uni<List<InstanceKey>> allKeys() {
        return pool.query("SELECT namespace, kind, name FROM oidc_clients").execute().map(rows -> {
            List<InstanceKey> keys = new ArrayList<>();
            rows.forEach(r -> keys.add(new InstanceKey(r.getString(0), r.getString(1), r.getString(2))));
            return keys;
        });
    }

    /** Pending (or Failed) with why, for a wanted client; true when it changed. One statement. */
    public Uni<Boolean> setState(InstanceKey key, OidcClientState state, String reason) {
        return pool.preparedQuery("UPDATE oidc_clients SET state = $4, reason = $5, updated_at = now()" + BY_KEY
                        + " AND wanted AND (state <> $4 OR reason IS DISTINCT FROM $5)")
                .execute(key(key).addString(state.name()).addString(reason))
                .map(rows -> rows.rowCount() == 1);
    }

    /**
     * A wanted client Ready, with {@code ready} ({@code access.oidc-client-ready}) when that changed its state and
     * {@code announce} says so: one statement (a transaction of four round trips before). True when it changed.
     */
    public Uni<Boolean> ready(InstanceKey key, LakehouseEvent ready, boolean announce) {
        return changeAnnounced(READY, key, ready, announce);
    }

    /**
     * Why the worker could not do its work, whether the client is wanted or being deleted: the row of
     * an instance being deleted then says why its removal waits. True when something changed.
     */
    public Uni<Boolean> setProblem(InstanceKey key, OidcClientState state, String reason) {
        return pool.preparedQuery("UPDATE oidc_clients SET state = $4, reason = $5, updated_at = now()" + BY_KEY
                        + " AND (state <> $4 OR reason IS DISTINCT FROM $5)")
                .execute(key(key).addString(state.name()).addString(reason))
                .map(rows -> rows.rowCount() == 1);
    }

    /**
     * Deletes the row unless the instance was requested again meanwhile, with {@code removed}
     * ({@code access.oidc-client-removed}) when it went: one statement. True when it went.
     */
    public Uni<Boolean> removeUnwanted(InstanceKey key, LakehouseEvent removed) {
        return changeAnnounced(UNWANTED_GONE, key, removed, true);
    }

    /** Runs {@code change} ($1–$3 the key) with {@code event} appended per row it changed if {@code announce}. */
    private Uni<Boolean> changeAnnounced(String change, InstanceKey key, LakehouseEvent event, boolean announce) {
        List<Object> args = new ArrayList<>(List.of(key.namespace(), key.kind(), key.name(), announce));
        args.addAll(Outbox.values(event));
        return pool.preparedQuery("WITH changed AS (" + change + " RETURNING 1), "
                        + Outbox.appendCte("announced", "changed WHERE $4::boolean", 5)
                        + " SELECT count(*) FROM changed")
                .execute(Tuple.from(args))
                .map(rows -> rows.iterator().next().getLong(0) > 0);
    }

    private static Tuple key(InstanceKey key) {
        return Tuple.of(key.namespace(), key.kind(), key.name());
    }

    private static OidcClientRecord record(Row r) {
        return new OidcClientRecord(new InstanceKey(r.getString(0), r.getString(1), r.getString(2)), r.getString(3),
                r.getBoolean(4), OidcClientState.valueOf(r.getString(5)), r.getString(6), r.getOffsetDateTime(7),
                r.getString(8), r.getString(9));
    }
}
