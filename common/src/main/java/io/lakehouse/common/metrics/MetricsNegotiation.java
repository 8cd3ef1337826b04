package io.lakehouse.common.metrics;

import io.quarkus.vertx.http.ManagementInterface;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Puts {@link MetricsFormat}'s choice in the Accept header of a {@code /q/metrics} request before
 * Quarkus' Prometheus handler reads it: exemplars only in OpenMetrics, to the clients that ask for it
 * first; the plain text format, without them, to every other.
 */
@ApplicationScoped
class MetricsNegotiation {

    /** The management root ({@code quarkus.management.root-path}, /q) and the Prometheus path (metrics). */
    static final String PATH = "/q/metrics";

    void route(@Observes ManagementInterface management) {
        // Before every route of the management router, whatever order Quarkus gives its own.
        management.router().route(PATH).order(Integer.MIN_VALUE).handler(ctx -> {
            ctx.request().headers().set("Accept", MetricsFormat.of(ctx.request().getHeader("Accept")));
            ctx.next();
        });
    }
}
