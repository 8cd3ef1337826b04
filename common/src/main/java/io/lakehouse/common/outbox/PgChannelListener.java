package io.lakehouse.common.outbox;

import io.vertx.mutiny.sqlclient.Pool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Waits on a PostgreSQL NOTIFY channel and hands payloads to a callback on its own thread. The
 * callback gets {@code null} after every (re)connection, when notifications may have been missed,
 * and an empty list when {@code timeout} passed without any (a slow fallback sweep).
 *
 * <p>The channel is LISTENed on the one connection its pool keeps for all its listeners
 * ({@link SharedListenConnection}), whose notifications arrive as the server sends them. Why not JDBC's
 * {@code PGConnection.getNotifications(timeout)}: after the first notification, pgjdbc waits for more with a 1 ms
 * socket timeout before it returns, so every wake came ≈ 1.2 ms after the commit instead of ≈ 0.1 ms (measured on the
 * local PostgreSQL), on the path of every reconcile trigger and every event the outbox relay publishes.
 */
public final class PgChannelListener implements AutoCloseable {

    private final Pool pool;
    private final Duration timeout;
    private final Consumer<List<String>> onWake;
    private final SharedListenConnection.Member member;
    private final Thread thread;
    private volatile SharedListenConnection connection;
    private volatile boolean running = true;

    public PgChannelListener(Pool pool, String channel, Duration timeout, Consumer<List<String>> onWake) {
        this.pool = pool;
        this.timeout = timeout;
        this.onWake = onWake;
        this.member = new SharedListenConnection.Member(channel, new LinkedBlockingQueue<>());
        this.thread = new Thread(this::run, "listen-" + channel);
        this.thread.setDaemon(true);
    }

    public synchronized PgChannelListener start() {
        connection = SharedListenConnection.join(pool, member);
        thread.start();
        return this;
    }

    private void run() {
        boolean resynced = false;
        while (running) {
            try {
                List<String> payloads = next();
                if (payloads == null) {
                    resynced = true;
                    wake(null);
                } else if (!payloads.isEmpty() || resynced && connection.connected()) {
                    wake(payloads);
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * What arrived within the timeout: null when a resync is among it (the full pass it calls for covers the payloads
     * around it), else the payloads, all that are there once one is (empty if none).
     */
    private List<String> next() throws InterruptedException {
        BlockingQueue<Object> arrived = member.queue();
        List<String> payloads = new ArrayList<>();
        boolean resync = false;
        for (Object item = arrived.poll(timeout.toMillis(), TimeUnit.MILLISECONDS); item != null;
                item = arrived.poll()) {
            if (item == SharedListenConnection.RESYNC) {
                resync = true;
            } else {
                payloads.add((String) item);
            }
        }
        return resync ? null : payloads;
    }

    private void wake(List<String> payloads) {
        try {
            onWake.accept(payloads);
        } catch (RuntimeException e) {
            // The callback reports its own failures; pace the retries it gets from the next wake.
            Pause.sleep(200);
        }
    }

    @Override
    public synchronized void close() {
        if (!running) {
            return;
        }
        running = false;
        thread.interrupt();
        if (connection != null) {
            SharedListenConnection.leave(connection, member);
        }
    }
}
