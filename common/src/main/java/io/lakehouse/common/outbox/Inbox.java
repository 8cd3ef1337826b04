package io.lakehouse.common.outbox;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.UUID;

/** Consumer-side deduplication: an event id is applied at most once per service schema. */
public final class Inbox {

    private Inbox() {}

    /** True on the first delivery of this event; false for a duplicate, which the caller skips. */
    public static Uni<Boolean> firstDelivery(SqlConnection tx, UUID eventId, String consumer) {
        return tx.preparedQuery("INSERT INTO inbox (event_id, consumer) VALUES ($1, $2) ON CONFLICT DO NOTHING")
                .execute(Tuple.of(eventId, consumer))
                .map(rows -> rows.rowCount() == 1);
    }
}
