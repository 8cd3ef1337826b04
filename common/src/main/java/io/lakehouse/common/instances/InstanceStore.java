package io.lakehouse.common.instances;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakehouse.common.audit.AuditedCall;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.TraceContext;
import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.outbox.Outbox;
import io.lakehouse.common.storage.SealedCredentials;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import java.io.IOException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code instances} table of a service's schema (see the engines migrations for its columns).
 * Every state change that others must hear about is written with its event in one transaction
 * (outbox).
 */
public class InstanceStore {

    // JSON columns as text: the driver would parse jsonb into maps that Jackson then converts again; as text
    // they are parsed once, straight into their types, and not at all when the row version is known
    // (DecodedInstances; xmin is the row version).
    private static final String COLUMNS = "namespace, name, kind, uid, spec::text AS spec,"
            + " sealed_credentials::text AS sealed_credentials, generation, phase, conditions::text AS conditions,"
            + " deleting, created_by, created_at, xmin::text AS version";
    private static final TypeReference<List<Condition>> CONDITIONS = new TypeReference<>() {};

    private final Pool pool;
    private final String readQuery;
    private final boolean tracksUsers;
    private final InstanceRows rows;
    private final ObjectMapper json;
    private final InstanceKinds<?> kinds;
    private final DecodedInstances decoded = new DecodedInstances();
    /** {@link #findForPass}'s statement by dependencies (one per service): built once, not on every pass. */
    private final Map<InstanceDependencies, String> passQueries = new ConcurrentHashMap<>();

    /** An instance as a single GET shows it: the row, and who uses it ({@code null} where not tracked). */
    public record Read(Instance instance, List<String> usedBy) {}

    /** An instance as a pass reads it: the row, and what it reads of the dependencies. */
    public record ForPass(Instance instance, PassDependencies dependencies) {}

    public InstanceStore(Pool pool, ObjectMapper json, InstanceKinds<?> kinds) {
        this(pool, json, kinds, null);
    }

    /**
     * {@code usedBy}: an SQL expression over the {@code instances} row giving the {@code text[]} of the
     * instances of other services using it (a sub-select of the service's own table), read with the row by
     * {@link #read} so that a single GET is one statement; null where the service does not track users.
     */
    public InstanceStore(Pool pool, ObjectMapper json, InstanceKinds<?> kinds, String usedBy) {
        this.pool = pool;
        this.readQuery = "SELECT " + COLUMNS + (usedBy == null ? "" : ", " + usedBy + " AS used_by")
                + " FROM instances WHERE namespace = $1 AND name = $2";
        this.tracksUsers = usedBy != null;
        this.kinds = kinds;
        this.rows = new InstanceRows(pool);
        // Rows written by an older or newer version may carry fields this one does not know.
        this.json = json.copy().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    }

    /**
     * Stores a new instance and its {@code instance.requested} event; 409 when its name (in the namespace,
     * across every kind) or its public host label is taken ({@link NameRegistry}).
     */
    public Uni<Void> insert(Instance inst, LakehouseEvent requested) {
        List<Object> values = new ArrayList<>(Arrays.asList(inst.namespace(), inst.name(), inst.kind(), inst.uid(),
                NameRegistry.hostLabel(inst.namespace(), inst.name()), TraceContext.current(), toJson(inst.spec()),
                inst.sealedCredentials() == null ? null : toJson(inst.sealedCredentials()), inst.phase().name(),
                inst.createdBy(), inst.createdAt().atOffset(ZoneOffset.UTC)));
        values.addAll(Outbox.values(requested));
        // The create's API call's audit outcome is written with it (AuditedCall): no commit of its own.
        AuditedCall.Outcome outcome = AuditedCall.foldable();
        if (outcome != null) {
            values.addAll(outcome.values());
        }
        return pool.preparedQuery(insertStatement(outcome)).execute(Tuple.from(values)).chain(rows -> {
            if (rows.iterator().next().getLong(0) == 0) {
                return NameRegistry.conflict(pool, inst.namespace(), inst.name());
            }
            if (outcome != null) {
                outcome.written();
            }
            return Uni.createFrom().voidItem();
        });
    }

    /**
     * The name's claim, the row, its event and the call's audit outcome in one statement, which commits on its own:
     * one round trip instead of a transaction's six (BEGIN, claim, row, event, outcome, COMMIT), each a wait on the
     * POST's path (P3). Nothing is written when the claim finds the name taken. The claim's filter hands the trace to
     * the reconcile trigger ({@link TraceContext#SETTING}; '' when tracing is off, which the triggers ignore).
     */
    private static String insertStatement(AuditedCall.Outcome outcome) {
        return "WITH " + NameRegistry.claimCte(5, TraceContext.statementFilter(6))
                + ", created AS (INSERT INTO instances (namespace, name, kind, uid, spec, sealed_credentials, phase,"
                + " created_by, created_at, updated_at) SELECT $1, $2, $3, $4::uuid, $7::jsonb, $8::jsonb, $9, $10,"
                + " $11::timestamptz, $11::timestamptz FROM claim RETURNING uid)"
                + ", " + Outbox.appendCte("requested", "created", 12)
                + (outcome == null ? "" : ", " + outcome.ctes("created", 20))
                + " SELECT count(*) FROM created";
    }

    /**
     * The instance named {@code name} in the namespace, whatever its kind, with what a pass reads of its dependencies
     * ({@link InstanceDependencies#passColumns}) in the same statement: the row and its dependencies as of one
     * snapshot. Null when there is no such instance.
     */
    public Uni<ForPass> findForPass(String namespace, String name, InstanceDependencies dependencies) {
        String query = passQueries.computeIfAbsent(dependencies, d -> "SELECT " + COLUMNS + d.passColumns()
                + " FROM instances WHERE namespace = $1 AND name = $2");
        return row(query, namespace, name)
                .map(row -> row == null ? null : new ForPass(map(row), dependencies.passDependencies(row)));
    }

    /**
     * The instance named {@code name} in the namespace, for the API, with its users in the same statement; null when
     * there is no such instance. An unchanged row is not decoded again ({@link DecodedInstances}). Only the API's
     * reads remember what they decoded, so that the reconciler's passes over every instance do not fill the memory
     * with instances nobody reads.
     */
    public Uni<Read> read(String namespace, String name) {
        return row(readQuery, namespace, name).map(row -> row == null ? null : new Read(remembered(row), usedBy(row)));
    }

    private Uni<Row> row(String sql, String namespace, String name) {
        return pool.preparedQuery(sql)
                .execute(Tuple.of(namespace, name))
                .map(rows -> rows.size() == 0 ? null : rows.iterator().next());
    }

    private List<String> usedBy(Row r) {
        // Not part of the remembered instance: another table, whose changes leave the row's xmin alone.
        return tracksUsers ? List.of(r.getArrayOfStrings("used_by")) : null;
    }

    /**
     * A page of one kind's instances ordered by name, starting after {@code after} (exclusive); for the API
     * (unchanged rows are not decoded again).
     */
    public Uni<List<Instance>> list(String namespace, String kind, String after, int limit) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM instances WHERE namespace = $1 AND kind = $2"
                        + " AND name > $3 ORDER BY name LIMIT $4")
                .execute(Tuple.of(namespace, kind, after == null ? "" : after, limit))
                .map(rows -> {
                    List<Instance> list = new ArrayList<>(rows.size());
                    rows.forEach(r -> list.add(remembered(r)));
                    return list;
                });
    }

    /** Keys ({@code namespace/name}) of every instance, for the start-up resync. */
    public Uni<List<String>> allKeys() {
        return keys(pool.query("SELECT namespace || '/' || name FROM instances").execute());
    }

    /** New spec, generation + 1, and its {@code instance.updated} event; false if the instance changed meanwhile. */
    public Uni<Boolean> updateSpec(Instance current, InstanceSpec spec, LakehouseEvent updated) {
        return rows.updateSpec(current.namespace(), current.name(), current.generation(), toJson(spec), updated);
    }

    public Uni<Boolean> markDeleting(Instance current, LakehouseEvent deleting) {
        return rows.markDeleting(current.namespace(), current.name(), deleting);
    }

    /** Writes an observed status (and its event, if any) unless the intent changed since it was read. */
    public Uni<Boolean> updateStatus(Instance observedAt, Phase phase, List<Condition> conditions,
            LakehouseEvent event) {
        return rows.updateStatus(observedAt.namespace(), observedAt.name(), observedAt.generation(), phase,
                toJsonArray(conditions), event);
    }

    /** Forgets a deleted instance and publishes {@code instance.deleted}. */
    public Uni<Void> delete(Instance inst, LakehouseEvent deleted) {
        return rows.delete(inst.namespace(), inst.name(), inst.uid(), deleted);
    }

    private static Uni<List<String>> keys(Uni<RowSet<Row>> query) {
        return query.map(rows -> {
            List<String> keys = new ArrayList<>();
            rows.forEach(r -> keys.add(r.getString(0)));
            return keys;
        });
    }

    private Instance remembered(Row r) {
        return decoded.get(r.getString("namespace"), r.getString("name"), r.getUUID("uid"), r.getString("version"),
                () -> map(r));
    }

    private Instance map(Row r) {
        try {
            String kind = r.getString("kind");
            String sealed = r.getString("sealed_credentials");
            return new Instance(
                    r.getString("namespace"), r.getString("name"), kind, r.getUUID("uid"),
                    json.readValue(r.getString("spec"), kinds.of(kind).specType()),
                    sealed == null ? null : json.readValue(sealed, SealedCredentials.class),
                    r.getLong("generation"), Phase.valueOf(r.getString("phase")),
                    json.readValue(r.getString("conditions"), CONDITIONS),
                    r.getBoolean("deleting"), r.getString("created_by"),
                    r.getOffsetDateTime("created_at").toInstant());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("unreadable instance row " + r.getString("name"), e);
        }
    }

    private JsonObject toJson(Object value) {
        return new JsonObject(json.convertValue(value, Map.class));
    }

    private JsonArray toJsonArray(List<Condition> conditions) {
        return new JsonArray(json.convertValue(conditions, List.class));
    }

}
