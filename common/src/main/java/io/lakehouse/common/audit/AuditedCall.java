package io.lakehouse.common.audit;

import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.outbox.Outbox;
import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The audit of the mutating API call being served. Its change's single statement takes {@link #foldable}: when the
 * call's resource method declares the status it answers on success ({@link SuccessStatus}), the outcome ({@code
 * audit.recorded} with that status) replaces the intent in the change's own statement, so a successful call commits
 * twice (the intent, the change) instead of three times, with the same events. The write-ahead intent keeps its job: a
 * replica that stops before the change commits leaves it, and it is published without an outcome ({@link
 * AuditIntents}). Any other answer (a refusal, a failed write, a call without {@link SuccessStatus}) is recorded by the
 * response filter as before.
 *
 * <p>Held in the request's Vert.x duplicated context (where the trace context lives too), so that the shared write
 * paths find it without an audit parameter in every signature; outside a request (reconcile passes, consumers) there
 * is none and writes are plain transactions.
 */
public final class AuditedCall {

    private static final String KEY = AuditedCall.class.getName();
    /** Drops the intent and appends the outcome in one statement (one round trip, atomic on its own). */
    static final String COMPLETE = "WITH intent AS (DELETE FROM audit_intents WHERE id = $1)"
            + " INSERT INTO outbox (" + Outbox.COLUMNS + ") VALUES ($2, $3, $4, $5, $6, $7, $8, $9)";

    private final String source;
    private volatile UUID intent;
    private volatile AuditRecord onSuccess;
    private volatile boolean recorded;

    private AuditedCall(String source) {
        this.source = source;
    }

    /**
     * The call's audit, made current for the request's writes (taken synchronously, on the request's own context,
     * before anything of the call runs).
     */
    static AuditedCall begin(String source) {
        AuditedCall call = new AuditedCall(source);
        if (VertxContext.isOnDuplicatedContext()) {
            ContextLocals.put(KEY, call);
        }
        return call;
    }

    /** The call served on this context, or null (not in an audited request). */
    static AuditedCall current() {
        return VertxContext.isOnDuplicatedContext() ? ContextLocals.<AuditedCall>get(KEY, null) : null;
    }

    /**
     * For a change made in a single statement: the current call's outcome, to be written by that statement when it
     * changes something ({@link Outcome#ctes}), or null when there is none to fold (not an audited call, no declared
     * success status, or written already).
     */
    public static Outcome foldable() {
        AuditedCall call = current();
        return call == null || !call.folds() ? null : new Outcome(call,
                Outbox.values(AuditIntents.event(call.source, call.onSuccess.subject(), call.onSuccess.toJson())));
    }

    /** The outcome of {@link #foldable}: its statement parts, and the mark that the statement wrote it. */
    public static final class Outcome {

        private final AuditedCall call;
        private final List<Object> outboxValues;

        private Outcome(AuditedCall call, List<Object> outboxValues) {
            this.call = call;
            this.outboxValues = outboxValues;
        }

        /**
         * Two data-modifying CTEs (to follow others after a comma) that delete the intent and append the outcome
         * when the CTE {@code changed} returns a row; their parameters are {@code $first} on, {@link #values} in order.
         */
        public String ctes(String changed, int first) {
            return "audit_intent AS (DELETE FROM audit_intents WHERE id = $" + first + " AND EXISTS (SELECT FROM "
                    + changed + ")), " + Outbox.appendCte("audit_outcome", changed, first + 1);
        }

        /** The parameters of {@link #ctes}: the intent's id, then the outcome's outbox row. */
        public List<Object> values() {
            List<Object> values = new ArrayList<>(outboxValues.size() + 1);
            values.add(call.intent);
            values.addAll(outboxValues);
            return values;
        }

        /** The statement changed something: its outcome is written, the response filter writes none. */
        public void written() {
            call.recorded = true;
        }
    }

    /** Writes {@code record} as the outcome of the call whose intent is {@code intent} (null: none was written). */
    static Uni<Void> complete(SqlClient client, UUID intent, AuditRecord record, String source) {
        LakehouseEvent event = AuditIntents.event(source, record.subject(), record.toJson());
        List<Object> args = new ArrayList<>(9);
        args.add(intent);
        args.addAll(Outbox.values(event));
        return client.preparedQuery(COMPLETE).execute(Tuple.from(args)).replaceWithVoid();
    }

    /**
     * The intent is committed; {@code onSuccess} is the outcome to write with the change (the declared {@link
     * SuccessStatus}), null when the method declares none.
     */
    void intentWritten(UUID id, AuditRecord onSuccess) {
        this.onSuccess = onSuccess;
        this.intent = id;
    }

    UUID intent() {
        return intent;
    }

    /** Whether the outcome was committed with the change and the answer is the one it records. */
    boolean answeredAsRecorded(int status) {
        return recorded && onSuccess != null && status == onSuccess.outcome();
    }

    /** Whether the outcome was committed with the change (the intent is gone). */
    boolean recorded() {
        return recorded;
    }

    private boolean folds() {
        return onSuccess != null && intent != null && !recorded;
    }
}
