package io.lakehouse.common.audit;

import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.outbox.Outbox;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * An API call's change, the event that announces it and the call's audit outcome ({@link AuditedCall#foldable}) in
 * one statement, which commits on its own: one round trip instead of a transaction's (BEGIN, a lock, the row, the
 * event, COMMIT, and the response filter's outcome in a transaction of its own). Nothing is written when the change
 * touches no row: then the caller learns false, and the response filter records the outcome as for any other call.
 */
public final class AuditedChange {

    private AuditedChange() {}

    /**
     * @param change a data-modifying statement without {@code RETURNING} whose parameters are {@code values}; its
     *     guard (a {@code WHERE}) decides whether anything changes
     * @return whether it changed a row
     */
    public static Uni<Boolean> execute(SqlClient client, String change, List<Object> values, LakehouseEvent event) {
        List<Object> all = new ArrayList<>(values);
        List<Object> eventValues = Outbox.values(event);
        all.addAll(eventValues);
        AuditedCall.Outcome outcome = AuditedCall.foldable();
        if (outcome != null) {
            all.addAll(outcome.values());
        }
        int eventAt = values.size() + 1;
        String statement = "WITH changed AS (" + change + " RETURNING 1), "
                + Outbox.appendCte("announced", "changed", eventAt)
                + (outcome == null ? "" : ", " + outcome.ctes("changed", eventAt + eventValues.size()))
                + " SELECT count(*) FROM changed";
        return client.preparedQuery(statement).execute(Tuple.from(all)).map(rows -> {
            boolean changed = rows.iterator().next().getLong(0) > 0;
            if (changed && outcome != null) {
                outcome.written();
            }
            return changed;
        });
    }
}
