package io.lakehouse.common.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** What every event consumer does when its handler fails (see IncomingEvents). */
@ConfigMapping(prefix = "lakehouse.consumers")
public interface ConsumerSettings {

    /**
     * {@code lakehouse.consumers.attempts}, default 8: tries of one event, in place, before it goes
     * to the channel's dead-letter topic; with the default backoff about 15 s, which a PostgreSQL
     * restart fits in.
     */
    @WithDefault("8")
    int attempts();

    /**
     * {@code lakehouse.consumers.initial-backoff}, default 200ms: the wait after the first failure,
     * doubled each time.
     */
    @WithDefault("200ms")
    Duration initialBackoff();

    /** {@code lakehouse.consumers.max-backoff}, default 5s: the longest wait between two tries. */
    @WithDefault("5s")
    Duration maxBackoff();
}
