package io.lakehouse.common.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakehouse.common.config.AuditSettings;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.outbox.Outbox;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.util.UUID;

/**
 * Write-ahead audit records ({@code audit_intents}): committed before a mutating call runs, replaced
 * by the {@code audit.recorded} event with the outcome atomically: in the change's own transaction when the call
 * declares its success status ({@link AuditedCall}), else in one statement after the answer. An intent that
 * outlives {@code lakehouse.audit.orphan-after} belongs to a replica that stopped in between: the
 * sweep (any replica; rows locked with SKIP LOCKED) publishes it without an outcome.
 */
@ApplicationScoped
public class AuditIntents {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ORPHANS = "DELETE FROM audit_intents WHERE id IN (SELECT id FROM audit_intents"
            + " WHERE created_at < now() - make_interval(secs => $1) ORDER BY created_at LIMIT 100"
            + " FOR UPDATE SKIP LOCKED) RETURNING subject, data::text";

    private final Pool pool;
    private final AuditSettings settings;
    private final String source;

    AuditIntents(Pool pool, AuditSettings settings, ServiceSettings service) {
        this.pool = pool;
        this.settings = settings;
        this.source = service.eventSource();
    }

    /** Commits the record of a call about to run; the returned id completes it. */
    public Uni<UUID> begin(AuditRecord record) {
        UUID id = UUID.randomUUID();
        return pool.preparedQuery("INSERT INTO audit_intents (id, subject, data) VALUES ($1, $2, $3)")
                .execute(Tuple.of(id, record.subject(), new JsonObject(record.toJson().toString())))
                .replaceWith(id);
    }

    /**
     * The call's outcome as its audit event, replacing its intent (null: none was written), in one statement: for the
     * calls whose outcome was not written with their change ({@link AuditedCall}).
     */
    public Uni<Void> complete(UUID intent, AuditRecord record) {
        return AuditedCall.complete(pool, intent, record, source);
    }

    /** A call about to run, current for its writes ({@link AuditedCall}). */
    AuditedCall call() {
        return AuditedCall.begin(source);
    }

    /**
     * Publishes the intents of calls whose replica stopped before answering (no outcome). Not while
     * this replica shuts down: its pool is closing, and another replica sweeps.
     */
    @Scheduled(every = "${lakehouse.audit.sweep-interval:30s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> publishOrphans() {
        return pool.withTransaction(tx -> tx.preparedQuery(ORPHANS)
                .execute(Tuple.of(settings.orphanAfter().toMillis() / 1000.0))
                .chain(rows -> {
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (Row row : rows) {
                        LakehouseEvent event = event(source, row.getString(0), parse(row.getString(1)));
                        chain = chain.chain(() -> Outbox.append(tx, event));
                    }
                    return chain;
                }));
    }

    /** The {@code audit.recorded} event of a call (with or without its outcome). */
    static LakehouseEvent event(String source, String subject, JsonNode data) {
        return LakehouseEvent.of(source, EventType.AUDIT_RECORDED, subject, data);
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
