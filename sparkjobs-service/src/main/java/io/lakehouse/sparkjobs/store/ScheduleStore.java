package io.lakehouse.sparkjobs.store;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The {@code schedules} table. */
@ApplicationScoped
public class ScheduleStore {

    private static final String COLUMNS = "namespace, name, cron, time_zone, policy, runs_kept, suspended, form::text,"
            + " created_by, created_at";

    private final Pool pool;

    ScheduleStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Boolean> insert(SqlClient tx, ScheduleRecord s, String script) {
        return tx.preparedQuery("INSERT INTO schedules (namespace, name, cron, time_zone, policy, runs_kept, suspended,"
                        + " form, script, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
                        + " ON CONFLICT DO NOTHING")
                .execute(Tuple.from(new Object[] {s.namespace(), s.name(), s.cron(), s.timeZone(), s.policy(),
                        s.runsKept(), s.suspended(), new JsonObject(s.form()), script, s.createdBy(), s.createdAt()}))
                .map(rows -> rows.rowCount() == 1);
    }

    public Uni<Void> update(SqlClient tx, ScheduleRecord s) {
        return tx.preparedQuery("UPDATE schedules SET cron = $3, time_zone = $4, policy = $5, runs_kept = $6,"
                        + " suspended = $7 WHERE namespace = $1 AND name = $2")
                .execute(Tuple.from(new Object[] {s.namespace(), s.name(), s.cron(), s.timeZone(), s.policy(),
                        s.runsKept(), s.suspended()}))
                .replaceWithVoid();
    }

    public Uni<Boolean> delete(SqlClient tx, String namespace, String name) {
        return tx.preparedQuery("DELETE FROM schedules WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(namespace, name)).map(rows -> rows.rowCount() == 1);
    }

    public Uni<Optional<ScheduleRecord>> get(String namespace, String name) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM schedules WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(namespace, name)).map(ScheduleStore::first);
    }

    public Uni<Optional<String>> script(String namespace, String name) {
        return pool.preparedQuery("SELECT script FROM schedules WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(namespace, name))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.ofNullable(rows.iterator().next().getString(0)));
    }

    public Uni<List<ScheduleRecord>> list(String namespace) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM schedules WHERE namespace = $1 ORDER BY name")
                .execute(Tuple.of(namespace)).map(rows -> {
                    List<ScheduleRecord> all = new ArrayList<>();
                    rows.forEach(r -> all.add(of(r)));
                    return all;
                });
    }

    private static Optional<ScheduleRecord> first(RowSet<Row> rows) {
        return rows.size() == 0 ? Optional.empty() : Optional.of(of(rows.iterator().next()));
    }

    private static ScheduleRecord of(Row r) {
        return new ScheduleRecord(r.getString(0), r.getString(1), r.getString(2), r.getString(3), r.getString(4),
                r.getInteger(5), r.getBoolean(6), r.getString(7), r.getString(8), r.getOffsetDateTime(9));
    }
}
