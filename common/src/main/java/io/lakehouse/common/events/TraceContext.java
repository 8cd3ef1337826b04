package io.lakehouse.common.events;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
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

    private TraceContext() {}

    /** {@code 00-<trace id>-<span id>-<flags>} of the current span, or null when there is none. */
    public static String current() {
        SpanContext span = Span.current().getSpanContext();
        return span.isValid()
                ? "00-" + span.getTraceId() + "-" + span.getSpanId() + "-" + span.getTraceFlags().asHex()
                : null;
    }

    /** The remote parent a record's header names; the root context when it has none or a malformed one. */
    public static Context of(Headers headers) {
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, GETTER);
    }
}
