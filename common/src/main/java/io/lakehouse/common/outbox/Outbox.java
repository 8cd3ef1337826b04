package io.lakehouse.common.outbox;

import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.TraceContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Writes events into the outbox inside the caller's transaction, with the trace context of the request
 * writing them ({@link TraceContext}).
 */
public final class Outbox {

    /** The outbox row's columns, in the order of {@link #values}. */
    public static final String COLUMNS = "event_id, topic, subject, type, source, event_time, data, traceparent";

    /** The SQL types of {@link #COLUMNS}, for parameters that a statement selects rather than inserts. */
    private static final List<String> TYPES =
            List.of("uuid", "text", "text", "text", "text", "timestamptz", "jsonb", "text");

    private static final int DATA = 6;

    private static final String INSERT = "INSERT INTO outbox (" + COLUMNS + ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

    private Outbox() {}

    public static Uni<Void> append(SqlConnection tx, LakehouseEvent event) {
        return tx.preparedQuery(INSERT).execute(Tuple.from(values(event))).replaceWithVoid();
    }

    /**
     * The event's row as the data-modifying CTE {@code name} of a statement that appends it only when another part of it
     * changed something: one row per row of the CTE {@code from}; its parameters are {@link #values}' from
     * {@code $first} on.
     */
    public static String appendCte(String name, String from, int first) {
        return insertCte(name, from, i -> typed(first + i, i));
    }

    /**
     * {@link #appendCte} with one event per row of {@code from}, each with an id of its own and the data of a template
     * merged with {@code fields} (a jsonb expression over the row): the events a statement's change makes one of per
     * row it touched. Its parameters are {@link #templateValues}' from {@code $first} on.
     */
    public static String appendPerRowCte(String name, String from, int first, String fields) {
        return insertCte(name, from, i -> i == 0 ? "gen_random_uuid()"
                : i == DATA ? typed(first + i - 1, i) + " || " + fields : typed(first + i - 1, i));
    }

    /** The template's row for {@link #appendPerRowCte}: {@link #values} without the event's id. */
    public static List<Object> templateValues(LakehouseEvent template) {
        return values(template).subList(1, TYPES.size());
    }

    /** The CTE inserting, per row of {@code from}, the select list of {@code column}'s expression for each column. */
    private static String insertCte(String name, String from, IntFunction<String> column) {
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < TYPES.size(); i++) {
            list.append(i == 0 ? "" : ", ").append(column.apply(i));
        }
        return name + " AS (INSERT INTO outbox (" + COLUMNS + ") SELECT " + list + " FROM " + from + ")";
    }

    /** Parameter {@code n} typed as column {@code i}: in {@code INSERT ... SELECT} a parameter takes none from it. */
    private static String typed(int n, int i) {
        return "$" + n + "::" + TYPES.get(i);
    }

    /**
     * The event's row as the values of {@link #COLUMNS}, for a statement that writes it together with the change it
     * announces (one round trip instead of a transaction's four); the relay sees it like any appended row.
     */
    public static List<Object> values(LakehouseEvent event) {
        return Arrays.asList(event.id(), event.type().topic().topicName(), event.subject(),
                event.type().cloudEventType(), event.source(), event.time().atOffset(ZoneOffset.UTC),
                new JsonObject(event.data().toString()), TraceContext.current());
    }
}
