package io.lakehouse.common.kube;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Leadership among the replicas of one service through a PostgreSQL session advisory lock: the
 * lock lives as long as the connection holding it, so a dead replica releases it at once. When the
 * connection breaks the holder steps down ({@code onLost}: stop writing) and competes again, so two
 * reconcilers never write at the same time and a database restart costs seconds, not a pod restart.
 */
public final class LeaderLock implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LeaderLock.class);

    private final DataSource dataSource;
    private final String name;
    private final Duration interval;
    private final Runnable onAcquired;
    private final Runnable onLost;
    private final Thread thread;
    private volatile boolean running = true;

    public LeaderLock(DataSource dataSource, String name, Duration interval, Runnable onAcquired, Runnable onLost) {
        this.dataSource = dataSource;
        this.name = name;
        this.interval = interval;
        this.onAcquired = onAcquired;
        this.onLost = onLost;
        this.thread = new Thread(this::run, "leader-" + name);
        this.thread.setDaemon(true);
    }

    public LeaderLock start() {
        thread.start();
        return this;
    }

    private void run() {
        while (running) {
            boolean leading = false;
            try (Connection connection = dataSource.getConnection()) {
                while (running && !tryLock(connection)) {
                    Thread.sleep(interval.toMillis());
                }
                if (!running) {
                    return;
                }
                LOG.infof("became the leader for %s", name);
                leading = true;
                onAcquired.run();
                while (running && connection.isValid((int) Math.max(1, interval.toSeconds()))) {
                    Thread.sleep(interval.toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                LOG.warnf("leader lock %s: %s", name, e.getMessage());
            }
            if (leading && running) {
                LOG.errorf("lost the leader lock for %s: stepping down", name);
                onLost.run();
            }
            sleep(interval);
        }
    }

    private static void sleep(Duration interval) {
        try {
            Thread.sleep(interval.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean tryLock(Connection connection) throws Exception {
        try (PreparedStatement st = connection.prepareStatement("SELECT pg_try_advisory_lock(hashtext(?))")) {
            st.setString(1, name);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
