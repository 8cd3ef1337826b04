package io.lakehouse.common.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The reconcile loop of a service. */
@ConfigMapping(prefix = "lakehouse.reconcile")
public interface ReconcileSettings {

    /** {@code lakehouse.reconcile.enabled}, default true; off for API-only test setups. */
    @WithDefault("true")
    boolean enabled();

    /** {@code lakehouse.reconcile.workers}, default 4: instances reconciled in parallel. */
    @WithDefault("4")
    int workers();

    /**
     * {@code lakehouse.reconcile.cache-sync-timeout}, default 60s: how long the informer caches' first lists
     * may go without a page at start-up before the leader gives up and steps down (a list that keeps
     * progressing is waited for, however big).
     */
    @WithDefault("60s")
    Duration cacheSyncTimeout();

    /**
     * {@code lakehouse.reconcile.lease-duration}, default 10s: the leader lease; a leader whose node
     * dies is replaced within it. The leader stops itself after half of it without a renewal, so a pass
     * must take less than half (the rest keeps every other replica out while it finishes).
     */
    @WithDefault("10s")
    Duration leaseDuration();

    /** {@code lakehouse.reconcile.lease-renew-interval}, default 2s: at most a third of the lease. */
    @WithDefault("2s")
    Duration leaseRenewInterval();
}
