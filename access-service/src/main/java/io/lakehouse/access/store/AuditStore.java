package io.lakehouse.access.store;

import io.lakehouse.common.events.IncomingEvents;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Table {@code audit_log}: append-only; a redelivered event is inserted once (unique event id). */
@ApplicationScoped
public class AuditStore {

    private final Pool pool;
    /** The consumers' connections: {@link #append} runs in the audit feed's consumer. */
    private final Pool events;

    AuditStore(Pool pool, @ReactiveDataSource(IncomingEvents.POOL) Pool events) {
        this.pool = pool;
        this.events = events;
    }

    public Uni<Void> append(UUID eventId, AuditEntry e) {
        return events.preparedQuery("INSERT INTO audit_log (event_id, event_type, event_time, namespace, actor, action,"
                        + " target, outcome, request_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
                        + " ON CONFLICT (event_id) DO NOTHING")
                .execute(Tuple.from(new Object[] {eventId, e.type(), e.time().atOffset(ZoneOffset.UTC), e.namespace(),
                        e.actor(), e.action(), e.target(), e.outcome(), e.requestId()}))
                .replaceWithVoid();
    }

    /**
     * Entries in arrival order after {@code afterSeq}; null filters match everything.
     *
     * @param namespace null for every namespace
     */
    public Uni<List<AuditEntry>> find(String namespace, Instant since, String actor, long afterSeq, int limit) {
        return pool.preparedQuery("SELECT seq, event_time, event_type, namespace, actor, action, target, outcome,"
                        + " request_id FROM audit_log WHERE seq > $1 AND ($2::text IS NULL OR namespace = $2)"
                        + " AND ($3::timestamptz IS NULL OR event_time >= $3) AND ($4::text IS NULL OR actor = $4)"
                        + " ORDER BY seq LIMIT $5")
                .execute(Tuple.from(new Object[] {afterSeq, namespace,
                        since == null ? null : since.atOffset(ZoneOffset.UTC), actor, limit}))
                .map(rows -> {
                    List<AuditEntry> entries = new ArrayList<>();
                    for (Row r : rows) {
                        entries.add(new AuditEntry(r.getLong(0), r.getOffsetDateTime(1).toInstant(), r.getString(2),
                                r.getString(3), r.getString(4), r.getString(5), r.getString(6), r.getInteger(7),
                                r.getString(8)));
                    }
                    return entries;
                });
    }
}
