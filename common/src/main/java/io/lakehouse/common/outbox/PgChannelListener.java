package io.lakehouse.common.outbox;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Waits on a PostgreSQL NOTIFY channel on its own thread and hands payloads to a callback. The
 * callback gets {@code null} after every (re)connection, when notifications may have been missed,
 * and an empty list when {@code timeout} passed without any (a slow fallback sweep).
 */
public final class PgChannelListener implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(PgChannelListener.class);
    private static final long MAX_BACKOFF_MS = 5_000;

    private final DataSource dataSource;
    private final String channel;
    private final Duration timeout;
    private final Consumer<List<String>> onWake;
    private final Thread thread;
    private volatile boolean running = true;

    public PgChannelListener(DataSource dataSource, String channel, Duration timeout, Consumer<List<String>> onWake) {
        this.dataSource = dataSource;
        this.channel = channel;
        this.timeout = timeout;
        this.onWake = onWake;
        this.thread = new Thread(this::run, "listen-" + channel);
        this.thread.setDaemon(true);
    }

    public PgChannelListener start() {
        thread.start();
        return this;
    }

    private void run() {
        long backoff = 100;
        while (running) {
            try (Connection connection = dataSource.getConnection()) {
                try (Statement st = connection.createStatement()) {
                    st.execute("LISTEN " + channel);
                }
                PGConnection pg = connection.unwrap(PGConnection.class);
                wake(null);
                backoff = 100;
                while (running) {
                    PGNotification[] notifications = pg.getNotifications((int) timeout.toMillis());
                    List<String> payloads = new ArrayList<>();
                    if (notifications != null) {
                        for (PGNotification n : notifications) {
                            payloads.add(n.getParameter());
                        }
                    }
                    wake(payloads);
                }
            } catch (Exception e) {
                if (!running) {
                    return;
                }
                LOG.warnf("listening on %s failed, reconnecting in %d ms: %s", channel, backoff, e.getMessage());
                sleep(backoff);
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
            }
        }
    }

    private void wake(List<String> payloads) {
        try {
            onWake.accept(payloads);
        } catch (RuntimeException e) {
            // The callback reports its own failures; pace the retries it gets from the next wake.
            sleep(200);
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
