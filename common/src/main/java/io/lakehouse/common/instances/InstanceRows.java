package io.lakehouse.common.instances;

import io.lakehouse.common.audit.AuditedChange;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.TraceContext;
import io.lakehouse.common.outbox.Outbox;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * The state changes every service makes on its {@code instances} table (columns namespace, name,
 * uid, spec, generation, phase, conditions, deleting, updated_at), each in one statement with the
 * event that announces it (outbox). Guards on generation and {@code deleting} make a change computed
 * from an older read a no-op instead of a lost update. The API's changes (spec, deletion) carry their call's audit
 * outcome in the same statement ({@link AuditedChange}).
 */
public final class InstanceRows {

    private final Pool pool;

    public InstanceRows(Pool pool) {
        this.pool = pool;
    }

    /** New spec, generation + 1, and its event; false if the instance changed meanwhile. */
    public Uni<Boolean> updateSpec(String namespace, String name, long generation, JsonObject spec,
            LakehouseEvent updated) {
        return AuditedChange.execute(pool,
                "UPDATE instances SET spec = $1::jsonb, generation = generation + 1, updated_at = now()"
                        + " WHERE namespace = $2 AND name = $3 AND generation = $4 AND NOT deleting AND "
                        + TraceContext.statementFilter(5),
                Arrays.asList(spec, namespace, name, generation, TraceContext.current()), updated);
    }

    /** Phase Deleting and its event; false if it was already being deleted. */
    public Uni<Boolean> markDeleting(String namespace, String name, LakehouseEvent deleting) {
        return AuditedChange.execute(pool, "UPDATE instances SET deleting = true, phase = $1, updated_at = now()"
                + " WHERE namespace = $2 AND name = $3 AND NOT deleting AND " + TraceContext.statementFilter(4),
                Arrays.asList(Phase.Deleting.name(), namespace, name, TraceContext.current()), deleting);
    }

    /**
     * Writes an observed status (and its event, if any) unless the intent changed since it was read: one statement,
     * which commits on its own (a reconcile pass waited for a transaction's four round trips at each phase change).
     */
    public Uni<Boolean> updateStatus(String namespace, String name, long generation, Phase phase,
            JsonArray conditions, LakehouseEvent event) {
        List<Object> values = new ArrayList<>(Arrays.asList(phase.name(), conditions, namespace, name, generation));
        if (event != null) {
            values.addAll(Outbox.values(event));
        }
        return pool.preparedQuery("WITH changed AS (UPDATE instances SET phase = $1, conditions = $2::jsonb,"
                        + " updated_at = now() WHERE namespace = $3 AND name = $4 AND generation = $5 AND NOT deleting"
                        + " RETURNING 1)" + (event == null ? "" : ", " + Outbox.appendCte("announced", "changed", 6))
                        + " SELECT count(*) FROM changed")
                .execute(Tuple.from(values))
                .map(rows -> rows.iterator().next().getLong(0) > 0);
    }

    /** Forgets a deleted instance, releases its name and publishes its deletion, in one statement. */
    public Uni<Void> delete(String namespace, String name, UUID uid, LakehouseEvent deleted) {
        List<Object> values = new ArrayList<>(Arrays.asList(namespace, name, uid));
        values.addAll(Outbox.values(deleted));
        return pool.preparedQuery("WITH gone AS (DELETE FROM instances WHERE namespace = $1 AND name = $2 AND uid = $3"
                        + " RETURNING uid), " + NameRegistry.releaseCte("gone") + ", "
                        + Outbox.appendCte("announced", "gone", 4) + " SELECT count(*) FROM gone")
                .execute(Tuple.from(values))
                .replaceWithVoid();
    }
}
