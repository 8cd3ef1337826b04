package io.lakehouse.common.kube;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Leadership among the replicas of one service through a lease row in the service's schema
 * ({@code leader_leases}), not a session lock: a session lock outlives a dead node until TCP notices
 * (hours), a lease expires after {@code ttl} whatever the network does.
 *
 * <ul>
 *   <li>The leader renews its lease every {@code interval}; any replica takes over a lease that has
 *       expired. Each new term increments the row's epoch, the fencing token: a renewal succeeds only
 *       for the holder's own epoch, so a leader that was replaced can never renew again.
 *   <li>A leader that has not renewed for half the lease (its node is cut off, the database is
 *       unreachable, a renewal hangs) stops on its own: {@link #isLeading()} turns false at once (the
 *       reconcile loop checks it before every pass) and {@code onLost} stops the loop and waits for the
 *       passes in flight, while the other half of the lease keeps every other replica out. Never two
 *       writers, as long as a pass is shorter than half the lease.
 *   <li>{@link #close()} steps down first, still renewing the lease while the passes in flight
 *       finish, then ends it at once so a successor does not wait for it to expire.
 * </ul>
 *
 * {@code onAcquired} and {@code onLost} run one after the other on a thread of their own, so a slow
 * start (informer caches syncing) never delays a renewal.
 */
public final class LeaderLock implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LeaderLock.class);
    private static final String ACQUIRE = "INSERT INTO leader_leases AS l (name, holder, epoch, expires_at)"
            + " VALUES (?, ?, 1, now() + make_interval(secs => ?))"
            + " ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, epoch = l.epoch + 1,"
            + " expires_at = EXCLUDED.expires_at WHERE l.expires_at < now() OR l.holder = EXCLUDED.holder"
            + " RETURNING epoch";
    private static final String RENEW = "UPDATE leader_leases SET expires_at = now() + make_interval(secs => ?)"
            + " WHERE name = ? AND holder = ? AND epoch = ?";
    private static final String RELEASE = "UPDATE leader_leases SET expires_at = now() - interval '1 second'"
            + " WHERE name = ? AND holder = ? AND epoch = ?";

    private final DataSource dataSource;
    private final String name;
    private final Duration interval;
    private final Duration ttl;
    private final Runnable onAcquired;
    private final Runnable onLost;
    private final String holder = UUID.randomUUID().toString();
    private final Thread renewer;
    private final ScheduledExecutorService watchdog;
    private final ExecutorService transitions;
    private volatile boolean running = true;
    /** The term this replica leads, 0 when it does not. */
    private volatile long epoch;
    /** The term {@link #close()} is stepping down from: still renewed, no longer leading. */
    private volatile long draining;
    /** {@link System#nanoTime()} after which this replica stops leading unless it renewed. */
    private volatile long deadline;

    /**
     * @param interval how often the leader renews (and a follower tries to take over)
     * @param ttl how long a lease lasts without renewal: the longest wait for a new leader
     */
    public LeaderLock(DataSource dataSource, String name, Duration interval, Duration ttl, Runnable onAcquired,
            Runnable onLost) {
        if (ttl.compareTo(interval.multipliedBy(3)) < 0) {
            throw new IllegalArgumentException("the lease must last at least three renewal intervals");
        }
        this.dataSource = dataSource;
        this.name = name;
        this.interval = interval;
        this.ttl = ttl;
        this.onAcquired = onAcquired;
        this.onLost = onLost;
        this.renewer = new Thread(this::run, "leader-" + name);
        this.renewer.setDaemon(true);
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "leader-watchdog-" + name));
        this.transitions = Executors.newSingleThreadExecutor(r -> daemon(r, "leader-transitions-" + name));
    }

    public LeaderLock start() {
        renewer.start();
        long check = Math.max(10, interval.toMillis() / 4);
        watchdog.scheduleWithFixedDelay(this::checkDeadline, check, check, TimeUnit.MILLISECONDS);
        return this;
    }

    /** True while this replica holds a lease it renewed within the last half lease: check before writing. */
    public boolean isLeading() {
        return epoch != 0 && System.nanoTime() - deadline < 0;
    }

    private void run() {
        while (running || draining != 0) {
            long started = System.nanoTime();
            try {
                long term = epoch;
                long closing = draining;
                if (closing != 0) {
                    renew(closing);
                } else if (!running) {
                    return;
                } else if (term == 0) {
                    long acquired = tryAcquire();
                    if (acquired != 0) {
                        acquired(acquired, started);
                    }
                } else if (renew(term)) {
                    renewed(term, started);
                } else {
                    lost(term, "the lease was taken over");
                }
            } catch (SQLException | RuntimeException e) {
                // The watchdog steps down once the half lease has passed without a renewal.
                LOG.warnf("leader lease %s: %s", name, e.getMessage());
            }
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void acquired(long term, long started) {
        if (!running) {
            return;
        }
        deadline = started + ttl.toNanos() / 2;
        epoch = term;
        LOG.infof("became the leader for %s (epoch %d)", name, term);
        transitions.execute(() -> lead(term));
    }

    /**
     * Runs {@code onAcquired}; when it fails (the informer caches did not sync in time on a loaded
     * machine), steps down and ends the lease, so that this or another replica competes again:
     * otherwise the lease stays renewed by a replica that reconciles nothing (the fault suite's
     * leader-failover saw it).
     */
    private void lead(long term) {
        try {
            onAcquired.run();
        } catch (RuntimeException e) {
            LOG.warnf("could not start leading %s (epoch %d): %s; stepping down", name, term, e.getMessage());
            if (resign(term)) {
                onLost.run();
                release(term);
            }
        }
    }

    private synchronized boolean resign(long term) {
        if (epoch != term || term == 0) {
            return false;
        }
        epoch = 0;
        return true;
    }

    private synchronized void renewed(long term, long started) {
        if (epoch == term) {
            deadline = started + ttl.toNanos() / 2;
        }
    }

    private synchronized void lost(long term, String why) {
        if (epoch != term || term == 0) {
            return;
        }
        epoch = 0;
        LOG.errorf("lost the leadership of %s (epoch %d): %s; stepping down", name, term, why);
        transitions.execute(onLost);
    }

    private void checkDeadline() {
        long term = epoch;
        if (term != 0 && System.nanoTime() - deadline >= 0) {
            lost(term, "no renewal for half the lease");
        }
    }

    private long tryAcquire() throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement st = c.prepareStatement(ACQUIRE)) {
            st.setString(1, name);
            st.setString(2, holder);
            st.setDouble(3, ttl.toMillis() / 1000.0);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    private boolean renew(long term) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement st = c.prepareStatement(RENEW)) {
            st.setDouble(1, ttl.toMillis() / 1000.0);
            st.setString(2, name);
            st.setString(3, holder);
            st.setLong(4, term);
            return st.executeUpdate() == 1;
        }
    }

    private void release(long term) {
        try (Connection c = dataSource.getConnection(); PreparedStatement st = c.prepareStatement(RELEASE)) {
            st.setString(1, name);
            st.setString(2, holder);
            st.setLong(3, term);
            st.executeUpdate();
        } catch (SQLException e) {
            LOG.warnf("could not end the lease %s (it expires on its own): %s", name, e.getMessage());
        }
    }

    /**
     * Steps down: no pass starts any more, {@code onLost} waits for those in flight while the lease
     * is still renewed (nobody else starts meanwhile), then the lease ends at once.
     */
    @Override
    public void close() {
        long term;
        synchronized (this) {
            running = false;
            term = epoch;
            draining = term;
            epoch = 0;
        }
        watchdog.shutdownNow();
        if (term != 0) {
            transitions.execute(onLost);
        }
        transitions.shutdown();
        try {
            if (!transitions.awaitTermination(1, TimeUnit.MINUTES)) {
                LOG.warnf("leader %s: stepping down takes longer than a minute", name);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        draining = 0;
        renewer.interrupt();
        try {
            renewer.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (term != 0) {
            release(term);
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
