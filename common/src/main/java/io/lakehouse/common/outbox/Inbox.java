package io.lakehouse.common.outbox;

import io.lakehouse.common.events.TraceContext;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/** Consumer-side deduplication: an event id is applied at most once per service schema. */
public final class Inbox {

    /**
     * The inbox row as a data-modifying CTE named {@code first}: one row on an event's first delivery, none on a
     * duplicate. Its filter hands the event's trace to the statement's reconcile triggers ({@link TraceContext#SETTING};
     * '' when tracing is off, which the triggers ignore).
     */
    private static final String FIRST = "WITH first AS (INSERT INTO inbox (event_id, consumer) SELECT $1, $2"
            + " WHERE " + TraceContext.statementFilter(3)
            + " ON CONFLICT DO NOTHING RETURNING event_id) ";

    private Inbox() {}

    /**
     * True on the first delivery of this event; false for a duplicate, which the caller skips. Hands the
     * event's trace to the transaction's reconcile triggers (a projection change that wakes a reconcile).
     */
    public static Uni<Boolean> firstDelivery(SqlConnection tx, UUID eventId, String consumer) {
        return TraceContext.toTransaction(tx).chain(() -> tx.preparedQuery("INSERT INTO inbox (event_id, consumer) VALUES ($1, $2) ON CONFLICT DO NOTHING")
                .execute(Tuple.of(eventId, consumer))
                .map(rows -> rows.rowCount() == 1));
    }

    /**
     * Applies a change at most once per event in a single statement: the inbox row and the change commit together
     * in the statement's own transaction, one round trip to PostgreSQL instead of a transaction's four (BEGIN, inbox,
     * change, COMMIT), which each consumed event paid on its latency (P9). {@code change} is the statement after the
     * inbox's CTE {@code first} and must write only when {@code first} has a row (e.g. {@code INSERT ... SELECT ...
     * FROM first}, {@code DELETE ... WHERE EXISTS (SELECT FROM first)}); its parameters are $4 on, {@code args} in
     * that order ($1–$3: event id, consumer, trace).
     */
    public static Uni<Void> applyOnce(SqlClient client, UUID eventId, String consumer, String change, Object... args) {
        List<Object> values = new ArrayList<>(List.of(eventId, consumer));
        values.add(TraceContext.current());
        values.addAll(Arrays.asList(args));
        return client.preparedQuery(FIRST + change).execute(Tuple.from(values)).replaceWithVoid();
    }
}
