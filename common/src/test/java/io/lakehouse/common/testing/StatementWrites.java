package io.lakehouse.common.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * Records which statement wrote each row of the watched tables, for tests that a change is one statement: a trigger per
 * table adds ({@code table}, a description of the row, the statement) to {@code test_writes}, the statement named by
 * its transaction and its text ({@code current_query()}: a prepared statement run twice has the same text).
 * {@link #close} drops the triggers and the table.
 */
public final class StatementWrites implements AutoCloseable {

    private final Pool pool;
    private final List<String> tables = new ArrayList<>();

    public StatementWrites(Pool pool) {
        this.pool = pool;
        sql("CREATE TABLE IF NOT EXISTS test_writes (tbl TEXT, what TEXT, statement TEXT)");
    }

    /**
     * Watches {@code events} ("INSERT OR UPDATE", ...) on {@code table}, each row described by {@code what} (an SQL
     * expression of {@code TG_OP}, {@code NEW} or {@code OLD}). One function per table: PL/pgSQL resolves a record's
     * field when the statement reading it runs, so one function could not name another table's columns.
     */
    public StatementWrites watch(String table, String events, String what) {
        sql("CREATE OR REPLACE FUNCTION test_" + table + "_seen() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " INSERT INTO test_writes VALUES ('" + table + "', " + what + ","
                + " pg_current_xact_id() || ': ' || current_query());"
                + " RETURN NULL; END $$");
        sql("CREATE TRIGGER test_" + table + "_written AFTER " + events + " ON " + table
                + " FOR EACH ROW EXECUTE FUNCTION test_" + table + "_seen()");
        tables.add(table);
        return this;
    }

    /**
     * Watches every table of the pool's schema (its Flyway history aside), each row described by its operation: so that
     * {@link #transactions} counts the service's write transactions and nothing else the cluster runs (autovacuum's
     * ANALYZE, for one, takes a transaction id of its own to write {@code pg_statistic}).
     */
    public StatementWrites watchEveryTable() {
        for (Row row : pool.query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                + " AND tablename NOT IN ('test_writes', 'flyway_schema_history')").execute().await().indefinitely()) {
            watch(row.getString(0), "INSERT OR UPDATE OR DELETE", "TG_OP");
        }
        return this;
    }

    /** How many transactions have written a row of the watched tables so far. */
    public long transactions() {
        return pool.query("SELECT count(DISTINCT split_part(statement, ':', 1)) FROM test_writes").execute().await()
                .indefinitely().iterator().next().getLong(0);
    }

    /** The statements that wrote a row of {@code table} described as {@code what}. */
    public List<String> statementsWriting(String table, String what) {
        return column("SELECT statement FROM test_writes WHERE tbl = $1 AND what = $2", Tuple.of(table, what));
    }

    /**
     * "table what" of each row written by the statement that wrote the row of {@code table} described as {@code what};
     * fails unless exactly one statement wrote such a row.
     */
    public List<String> writtenWith(String table, String what) {
        List<String> statements = statementsWriting(table, what);
        assertThat(statements).as("the statements that wrote %s %s", table, what).hasSize(1);
        return writtenBy(statements.get(0));
    }

    /** "table what" of each row the statement wrote. */
    public List<String> writtenBy(String statement) {
        return column("SELECT tbl || ' ' || what FROM test_writes WHERE statement = $1", Tuple.of(statement));
    }

    /** What was written to {@code table}, each row as described. */
    public List<String> written(String table) {
        return column("SELECT what FROM test_writes WHERE tbl = $1", Tuple.of(table));
    }

    @Override
    public void close() {
        for (String table : tables) {
            sql("DROP TRIGGER test_" + table + "_written ON " + table);
            sql("DROP FUNCTION test_" + table + "_seen()");
        }
        sql("DROP TABLE test_writes");
    }

    private List<String> column(String query, Tuple args) {
        List<String> values = new ArrayList<>();
        for (Row row : pool.preparedQuery(query).execute(args).await().indefinitely()) {
            values.add(row.getString(0));
        }
        return values;
    }

    private void sql(String statement) {
        pool.query(statement).execute().await().indefinitely();
    }
}
