package io.lakehouse.sparkjobs.store;

import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.outbox.Outbox;
import io.lakehouse.sparkjobs.kube.ApplicationStatus;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The {@code jobs} table: the history of every namespace. */
@ApplicationScoped
public class JobStore {

    private static final String COLUMNS = "namespace, name, state, source_type, profile, schedule, form::text,"
            + " created_by, created_at, started_at, ended_at, error";

    /** The job, then its event only when the job was written (the outbox's columns from $14 on). */
    private static final String INSERT_LAUNCHED = "WITH job AS (INSERT INTO jobs (namespace, name, state, source_type,"
            + " profile, schedule, form, script, created_by, created_at, started_at, ended_at, error)"
            + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING RETURNING name)"
            + " INSERT INTO outbox (" + Outbox.COLUMNS + ")"
            + " SELECT $14::uuid, $15, $16, $17, $18, $19::timestamptz, $20::jsonb, $21 FROM job";

    private final Pool pool;

    JobStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Inserts a launched job and its {@code sparkjob.submitted} outbox row in one statement (one round trip, atomic
     * on its own); false, with neither written, when a job of that name is already in the history: the unique key
     * is the launch's name check.
     */
    public Uni<Boolean> insertLaunched(JobRecord job, String script, LakehouseEvent submitted) {
        List<Object> args = new ArrayList<>(Arrays.asList(job.namespace(), job.name(), job.state(), job.sourceType(),
                job.profile(), job.schedule(), job.form() == null ? null : new JsonObject(job.form()), script,
                job.createdBy(), job.createdAt(), job.startedAt(), job.endedAt(), job.error()));
        args.addAll(Outbox.values(submitted));
        return pool.preparedQuery(INSERT_LAUNCHED).execute(Tuple.from(args)).map(rows -> rows.rowCount() == 1);
    }

    public Uni<Optional<JobRecord>> get(String namespace, String name) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM jobs WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(namespace, name))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(of(rows.iterator().next())));
    }

    /** The typed script of a job, if it had one. */
    public Uni<Optional<String>> script(String namespace, String name) {
        return pool.preparedQuery("SELECT script FROM jobs WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(namespace, name))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.ofNullable(rows.iterator().next().getString(0)));
    }

    /**
     * Newest first; {@code after} is the last row of the previous page ({@code <created_at>|<name>}).
     *
     * @param state only jobs in that state, or null
     * @param schedule only runs of that schedule, or null
     */
    public Uni<List<JobRecord>> list(String namespace, String state, String schedule, OffsetDateTime afterTime,
            String afterName, int limit) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM jobs WHERE namespace = $1");
        List<Object> args = new ArrayList<>(List.of(namespace));
        if (state != null) {
            args.add(state);
            sql.append(" AND state = $").append(args.size());
        }
        if (schedule != null) {
            args.add(schedule);
            sql.append(" AND schedule = $").append(args.size());
        }
        if (afterTime != null) {
            args.add(afterTime);
            args.add(afterName);
            sql.append(" AND (created_at, name) < ($").append(args.size() - 1).append(", $").append(args.size())
                    .append(")");
        }
        args.add(limit);
        sql.append(" ORDER BY created_at DESC, name DESC LIMIT $").append(args.size());
        return pool.preparedQuery(sql.toString()).execute(Tuple.from(args)).map(rows -> {
            List<JobRecord> jobs = new ArrayList<>();
            rows.forEach(r -> jobs.add(of(r)));
            return jobs;
        });
    }

    /**
     * Applies what the operator reports: the state when it changed (never over CANCELLED, which is
     * ours), the times and error when known, the driver's last lines when read with a final state.
     * Empty when nothing changed or the job is not in the history.
     */
    public Uni<Optional<JobRecord>> observe(SqlClient tx, ApplicationStatus s, String driverLog) {
        return tx.preparedQuery("UPDATE jobs SET state = $3, started_at = coalesce($4, started_at),"
                        + " ended_at = coalesce($5, ended_at), error = coalesce($6, error),"
                        + " driver_log = coalesce($7, driver_log)"
                        + " WHERE namespace = $1 AND name = $2 AND state <> $3 AND state <> 'CANCELLED'"
                        + " RETURNING " + COLUMNS)
                .execute(Tuple.from(new Object[] {s.namespace(), s.name(), s.state(), s.startedAt(), s.endedAt(),
                        s.error(), driverLog}))
                .map(JobStore::first);
    }

    /**
     * A job found on the cluster: made by hand (no form: no relaunch), or a run a schedule started, which
     * takes the schedule's form, script, profile and author (so it can be relaunched like any launch).
     * Empty when already there.
     */
    public Uni<Optional<JobRecord>> insertFound(SqlClient tx, ApplicationStatus s) {
        return tx.preparedQuery("INSERT INTO jobs (namespace, name, state, source_type, profile, schedule, form, script,"
                        + " created_by, created_at, started_at, ended_at, error)"
                        + " SELECT $1, $2, $3, coalesce(sc.form->'source'->>'type', $4), sc.form->>'profile', $5,"
                        + " sc.form, sc.script, coalesce($6, sc.created_by), $7, $8, $9, $10"
                        + " FROM (SELECT 1) one LEFT JOIN schedules sc ON sc.namespace = $1 AND sc.name = $5"
                        + " ON CONFLICT DO NOTHING RETURNING " + COLUMNS)
                .execute(Tuple.from(new Object[] {s.namespace(), s.name(), s.state(), s.sourceType(), s.schedule(),
                        s.createdBy(), s.createdAt(), s.startedAt(), s.endedAt(), s.error()}))
                .map(JobStore::first);
    }

    /** CANCELLED, when the job is still active; empty otherwise. */
    public Uni<Optional<JobRecord>> cancel(SqlClient tx, String namespace, String name, OffsetDateTime at) {
        return tx.preparedQuery("UPDATE jobs SET state = 'CANCELLED', ended_at = $3 WHERE namespace = $1"
                        + " AND name = $2 AND state NOT IN ('COMPLETED', 'FAILED', 'SUBMISSION_FAILED', 'CANCELLED')"
                        + " RETURNING " + COLUMNS)
                .execute(Tuple.of(namespace, name, at))
                .map(JobStore::first);
    }

    public Uni<Optional<JobRecord>> delete(SqlClient tx, String namespace, String name) {
        return tx.preparedQuery("DELETE FROM jobs WHERE namespace = $1 AND name = $2 RETURNING " + COLUMNS)
                .execute(Tuple.of(namespace, name))
                .map(JobStore::first);
    }

    public Uni<Void> saveLog(String namespace, String name, String log) {
        return pool.preparedQuery("UPDATE jobs SET driver_log = $3 WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(namespace, name, log)).replaceWithVoid();
    }

    /** The driver's last lines as kept when the job ended, if any. */
    public Uni<Optional<String>> driverLog(String namespace, String name) {
        return pool.preparedQuery("SELECT driver_log FROM jobs WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(namespace, name))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.ofNullable(rows.iterator().next().getString(0)));
    }

    private static Optional<JobRecord> first(io.vertx.mutiny.sqlclient.RowSet<Row> rows) {
        return rows.size() == 0 ? Optional.empty() : Optional.of(of(rows.iterator().next()));
    }

    private static JobRecord of(Row r) {
        return new JobRecord(r.getString(0), r.getString(1), r.getString(2), r.getString(3), r.getString(4),
                r.getString(5), r.getString(6), r.getString(7), r.getOffsetDateTime(8), r.getOffsetDateTime(9),
                r.getOffsetDateTime(10), r.getString(11));
    }
}
