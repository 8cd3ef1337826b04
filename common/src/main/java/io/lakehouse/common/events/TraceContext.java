package io.lakehouse.common.events;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The W3C trace context of an event, so one API request can be followed through Kafka into the other
 * services: captured from the current span when the event is written to the outbox (the relay
 * publishes later, on its own thread, outside the request), carried in the record's
 * {@value #HEADER} header, restored as the parent of the consumer's span. Nothing when tracing is off
 * (no valid current span): the column stays null and the header absent.
 */
public final class TraceContext {

    /** The W3C header, as OpenTelemetry's Kafka instrumentation and other consumers read it. */
    public static final String HEADER = "traceparent";
    /**
     * The transaction-local setting the services' reconcile NOTIFY triggers append to their payload
     * ({@code namespace/name traceparent}), so the pass the change causes continues the request's trace.
     */
    public static final String SETTING = "lakehouse.traceparent";

    private static final TextMapGetter<Headers> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Headers headers) {
            return List.of(HEADER);
        }

        @Override
        public String get(Headers headers, String key) {
            Header header = headers == null ? null : headers.lastHeader(key);
            return header == null || header.value() == null ? null
                    : new String(header.value(), StandardCharsets.UTF_8);
        }
    };

    private static final TextMapGetter<String> VALUE = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String value) {
            return List.of(HEADER);
        }

        @Override
        public String get(String value, String key) {
            return HEADER.equals(key) ? value : null;
        }
    };

    private TraceContext() {}

    /** {@code 00-<trace id>-<span id>-<flags>} of the current span, or null when there is none. */
    public static String current() {
        SpanContext span = Span.current().getSpanContext();
        return span.isValid()
                ? "00-" + span.getTraceId() + "-" + span.getSpanId() + "-" + span.getTraceFlags().asHex()
                : null;
    }

    /**
     * A condition for a single statement's WHERE that hands the trace in parameter {@code $parameter} to the
     * statement's NOTIFY triggers ({@link #SETTING}; '' when tracing is off, which the triggers ignore): always true,
     * evaluated before the rows it guards change, so no statement of its own.
     */
    public static String statementFilter(int parameter) {
        return "set_config('" + SETTING + "', coalesce($" + parameter + "::text, ''), true) IS NOT NULL";
    }

    /**
     * Hands the current trace to the NOTIFY triggers of {@code tx}'s transaction ({@link #SETTING}); no
     * statement at all when tracing is off.
     */
    public static Uni<Void> toTransaction(SqlClient tx) {
        String traceparent = current();
        return traceparent == null ? Uni.createFrom().voidItem()
                : tx.preparedQuery("SELECT set_config($1, $2, true)").execute(Tuple.of(SETTING, traceparent))
                        .replaceWithVoid();
    }

    /** The remote span a {@code traceparent} value names; an invalid one when null or malformed. */
    public static SpanContext parse(String traceparent) {
        return traceparent == null ? SpanContext.getInvalid()
                : Span.fromContext(W3CTraceContextPropagator.getInstance().extract(Context.root(), traceparent, VALUE))
                        .getSpanContext();
    }

    /** The remote parent a record's header names; the root context when it has none or a malformed one. */
    public static Context of(Headers headers) {
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, GETTER);
    }
}
