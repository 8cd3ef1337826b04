package io.lakehouse.common.outbox;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.pgclient.PgConnection;
import io.vertx.pgclient.PgNotification;
import java.time.Duration;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.LinkedBlockingQueue;
import org.jboss.logging.Logger;

/**
 * The one connection of a pool that LISTENs on the channels of all its {@link PgChannelListener}s.
 *
 * <p>Why one: PostgreSQL wakes every backend of the database that LISTENs on anything at every commit that sent a
 * NOTIFY, whatever its channel. With a connection per channel (three per service, fourteen in the suite) a membership
 * PUT's six notifying commits woke ≈ 80 backends, a third of PostgreSQL's CPU for the PUT (docs/benchmarks.md).
 *
 * <p>All its I/O runs on its own thread: it (re)connects, LISTENs on the channels as listeners join, UNLISTENs those
 * nobody wants any more, and puts {@link #RESYNC} in a listener's queue once the listener's channel is heard on the
 * current connection (after every reconnection too: notifications may have been missed meanwhile). Notifications go
 * to the queues of their channel's listeners as the server sends them.
 */
final class SharedListenConnection {

    /** Put in a listener's queue once its channel is LISTENed on a (new) connection. */
    static final Object RESYNC = new Object();

    private static final Logger LOG = Logger.getLogger(SharedListenConnection.class);
    private static final Map<Pool, SharedListenConnection> BY_POOL = new IdentityHashMap<>();
    private static final long MAX_BACKOFF_MS = 5_000;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** Put in the control queue: the listeners changed. */
    private static final Object JOINED_OR_LEFT = new Object();
    /** Put in the control queue when the connection closed: listen again on another one. */
    private static final Object CLOSED = new Object();

    /** A listener's channel and the queue its notifications go to. */
    record Member(String channel, BlockingQueue<Object> queue) {}

    private final Pool pool;
    private final Set<Member> members = new CopyOnWriteArraySet<>();
    private final Thread thread;
    private volatile BlockingQueue<Object> control = new LinkedBlockingQueue<>();
    private volatile boolean connected;
    private volatile boolean running = true;

    private SharedListenConnection(Pool pool) {
        this.pool = pool;
        this.thread = new Thread(this::run, "listen-" + Integer.toHexString(System.identityHashCode(pool)));
        this.thread.setDaemon(true);
    }

    /** Adds a member to the pool's connection, opening it for the first one. */
    static synchronized SharedListenConnection join(Pool pool, Member member) {
        SharedListenConnection shared = BY_POOL.get(pool);
        if (shared == null) {
            shared = new SharedListenConnection(pool);
            BY_POOL.put(pool, shared);
            shared.thread.start();
        }
        shared.members.add(member);
        shared.control.add(JOINED_OR_LEFT);
        return shared;
    }

    /** Takes a member out, closing the pool's connection after the last one. */
    static synchronized void leave(SharedListenConnection shared, Member member) {
        shared.members.remove(member);
        if (shared.members.isEmpty()) {
            BY_POOL.remove(shared.pool);
            shared.running = false;
            shared.thread.interrupt();
        } else {
            shared.control.add(JOINED_OR_LEFT);
        }
    }

    /** Whether a connection is up: a listener's timeout only means "nothing happened" while one is. */
    boolean connected() {
        return connected;
    }

    private void run() {
        long backoff = 100;
        while (running) {
            SqlConnection connection = null;
            BlockingQueue<Object> events = new LinkedBlockingQueue<>();
            control = events;
            try {
                connection = pool.getConnection().await().atMost(CONNECT_TIMEOUT);
                PgConnection pg = (PgConnection) connection.getDelegate();
                pg.notificationHandler(this::deliver);
                pg.closeHandler(closed -> events.add(CLOSED));
                connected = true;
                serve(connection, events);
                backoff = 100;
            } catch (Exception e) {
                if (!running) {
                    return;
                }
                LOG.warnf("listening on %s failed, reconnecting in %d ms: %s", channels(), backoff, e.getMessage());
                Pause.sleep(backoff);
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
            } finally {
                connected = false;
                boolean interrupted = Thread.interrupted(); // closing: still give the connection back clean
                release(connection);
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** Keeps the connection's LISTENs equal to the members' channels until it closes. */
    private void serve(SqlConnection connection, BlockingQueue<Object> events) throws InterruptedException {
        Set<String> heard = new HashSet<>();
        Set<Member> told = new HashSet<>();
        while (running) {
            for (Member member : members) {
                if (heard.add(member.channel())) {
                    execute(connection, "LISTEN " + member.channel());
                }
                if (told.add(member)) {
                    member.queue().add(RESYNC);
                }
            }
            Set<String> wanted = channels();
            for (String channel : Set.copyOf(heard)) {
                if (!wanted.contains(channel)) {
                    execute(connection, "UNLISTEN " + channel);
                    heard.remove(channel);
                }
            }
            told.retainAll(members);
            if (events.take() == CLOSED) {
                throw new IllegalStateException("the listening connection closed");
            }
        }
    }

    private void deliver(PgNotification notification) {
        for (Member member : members) {
            if (member.channel().equals(notification.getChannel())) {
                member.queue().add(notification.getPayload());
            }
        }
    }

    private Set<String> channels() {
        Set<String> channels = new HashSet<>();
        members.forEach(member -> channels.add(member.channel()));
        return channels;
    }

    /** Gives the connection back to the pool, not listening any more (a broken one the pool drops). */
    private static void release(SqlConnection connection) {
        if (connection == null) {
            return;
        }
        try {
            execute(connection, "UNLISTEN *");
        } catch (RuntimeException e) {
            // closed or broken: nothing listens on it any more
        }
        connection.closeAndForget();
    }

    private static void execute(SqlConnection connection, String statement) {
        connection.query(statement).execute().await().atMost(CONNECT_TIMEOUT);
    }
}
