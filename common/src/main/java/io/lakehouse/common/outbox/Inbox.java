package io.lakehouse.common.outbox;

import io.lakehouse.common.events.TraceContext;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.UUID;

/** Consumer-side deduplication: an event id is applied at most once per service schema. */
public final class Inbox {

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
}
