package io.lakehouse.common.kube;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.List;
import java.util.function.Supplier;

/**
 * The span of one pass of a work queue, so that a request can be followed into the reconcile it caused
 * even though the pass runs later, on a worker thread: a child of the first span that asked for it,
 * linked to the others (several triggers coalesced into one pass); a trace of its own when nothing
 * traced asked (a drift, a timer, a resync). Current while the pass runs, so what it writes (events'
 * {@code traceparent}, SQL spans) belongs to it.
 */
final class ReconcileSpan {

    static final String KEY = "lakehouse.key";
    static final String TRIGGERS = "lakehouse.triggers";

    private ReconcileSpan() {}

    static <T> T run(Tracer tracer, String queue, String key, List<SpanContext> triggers, Supplier<T> pass) {
        Span span = start(tracer, queue, key, triggers);
        try (Scope ignored = span.makeCurrent()) {
            return pass.get();
        } catch (RuntimeException e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, e.getMessage());
            throw e;
        } finally {
            span.end();
        }
    }

    private static Span start(Tracer tracer, String queue, String key, List<SpanContext> triggers) {
        // One name per queue: span names must not hold the key (unbounded cardinality in backends).
        SpanBuilder builder = tracer.spanBuilder(queue + " pass")
                .setAttribute(KEY, key)
                .setAttribute(TRIGGERS, triggers.size());
        if (triggers.isEmpty()) {
            builder.setNoParent();
        } else {
            builder.setParent(Context.root().with(Span.wrap(triggers.get(0))));
            triggers.subList(1, triggers.size()).forEach(builder::addLink);
        }
        return builder.startSpan();
    }
}
