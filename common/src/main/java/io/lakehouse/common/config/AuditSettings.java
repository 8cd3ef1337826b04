package io.lakehouse.common.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The write-ahead audit of mutating API calls (common AuditFilter, AuditIntents). */
@ConfigMapping(prefix = "lakehouse.audit")
public interface AuditSettings {

    /**
     * {@code lakehouse.audit.orphan-after}, default 5m: an audit intent older than this belongs to a
     * call whose replica stopped before answering; it is published with an unknown outcome. Longer
     * than any call may take.
     */
    @WithDefault("5m")
    Duration orphanAfter();

    /**
     * {@code lakehouse.audit.sweep-interval}, default 30s: how often orphaned intents are looked for
     * (read by the scheduler).
     */
    @WithDefault("30s")
    Duration sweepInterval();
}
