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
        return name + " AS (INSERT INTO outbox (" + COLUMNS + ") SELECT " + selectList(first) + " FROM " + from + ")";
    }

    /**
     * {@link #appendCte} with one event per row of {@code from}, each with an id of its own and the data of a template
     * merged with {@code fields} (a jsonb expression over the row): the events a statement's change makes one of per
     * row it touched. Its parameters are {@link #templateValues}' from {@code $first} on.
     */
    public static String appendPerRowCte(String name, String from, int first, String fields) {
        StringBuilder list = new StringBuilder("gen_random_uuid()");
        for (int i = 1; i < TYPES.size(); i++) {
            String param = "$" + (first + i - 1) + "::" + TYPES.get(i);
            list.append(", ").append(i == DATA ? param + " || " + fields : param);
        }
        return name + " AS (INSERT INTO outbox (" + COLUMNS + ") SELECT " + list + " FROM " + from + ")";
    }

    /** The template's row for {@link #appendPerRowCte}: {@link #values} without the event's id. */
    public static List<Object> templateValues(LakehouseEvent template) {
        return values(template).subList(1, TYPES.size());
    }

    /** The parameters as a typed select list (in {@code INSERT ... SELECT} a parameter takes no type from its column). */
    private static String selectList(int first) {
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < TYPES.size(); i++) {
            list.append(i == 0 ? "" : ", ").append('$').append(first + i).append("::").append(TYPES.get(i));
        }
        return list.toString();
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
