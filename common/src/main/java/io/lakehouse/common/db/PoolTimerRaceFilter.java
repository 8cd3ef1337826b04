package io.lakehouse.common.db;

import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Keeps a known-harmless Vert.x SQL pool bug out of the ERROR log. Cause (vertx-sql-client #1706, open
 * in 4.5.x): a query run on the pool itself arms a timer of the pool's connection timeout (30 s) and
 * cancels it only when a connection was acquired; when PostgreSQL is down the acquisition fails at once
 * (the caller gets its error, the API its 503), and 30 s later the timer fails the same promise again:
 * {@code IllegalStateException: Result is already complete}, reported as an uncaught exception at ERROR,
 * once per query sent during the outage. Nothing is lost or retried; only that exact failure (thrown
 * from the pool's timer) is logged at DEBUG, every other uncaught exception still reaches Quarkus'
 * handler.
 */
@ApplicationScoped
public class PoolTimerRaceFilter {

    private static final Logger LOG = Logger.getLogger(PoolTimerRaceFilter.class);
    private static final String POOL_CLASS = "io.vertx.sqlclient.impl.pool.SqlConnectionPool";

    private final AtomicLong filtered = new AtomicLong();

    void install(@Observes StartupEvent event, Vertx vertx) {
        install(vertx);
    }

    /** Wraps the Vert.x instance's uncaught-exception handler. */
    public void install(Vertx vertx) {
        Handler<Throwable> previous = vertx.exceptionHandler();
        vertx.exceptionHandler(failure -> {
            if (isPoolTimerRace(failure)) {
                filtered.incrementAndGet();
                LOG.debugf("a query's pool timer fired after its failed acquisition (vertx-sql-client#1706)");
            } else if (previous != null) {
                previous.handle(failure);
            } else {
                LOG.error("Uncaught exception received by Vert.x", failure);
            }
        });
    }

    /** How many of those timer failures were kept out of the ERROR log. */
    public long filtered() {
        return filtered.get();
    }

    static boolean isPoolTimerRace(Throwable failure) {
        if (!(failure instanceof IllegalStateException) || !"Result is already complete".equals(failure.getMessage())) {
            return false;
        }
        for (StackTraceElement frame : failure.getStackTrace()) {
            if (POOL_CLASS.equals(frame.getClassName()) && frame.getMethodName().startsWith("lambda$execute$")) {
                return true;
            }
        }
        return false;
    }
}
