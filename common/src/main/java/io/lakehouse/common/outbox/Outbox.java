package io.lakehouse.common.outbox;

import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.TraceContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.ZoneOffset;

/**
 * Writes events into the outbox inside the caller's transaction, with the trace context of the request
 * writing them ({@link TraceContext}).
 */
public final class Outbox {

    private static final String INSERT = "INSERT INTO outbox (event_id, topic, subject, type, source, event_time, data,"
            + " traceparent) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

    private Outbox() {}

    public static Uni<Void> append(SqlConnection tx, LakehouseEvent event) {
        Tuple row = Tuple.tuple()
                .addUUID(event.id())
                .addString(event.type().topic().topicName())
                .addString(event.subject())
                .addString(event.type().cloudEventType())
                .addString(event.source())
                .addOffsetDateTime(event.time().atOffset(ZoneOffset.UTC))
                .addValue(new JsonObject(event.data().toString()))
                .addString(TraceContext.current());
        return tx.preparedQuery(INSERT).execute(row).replaceWithVoid();
    }
}
