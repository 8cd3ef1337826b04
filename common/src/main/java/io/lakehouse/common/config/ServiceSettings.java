package io.lakehouse.common.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Identity of the running service and its outbox relay. */
@ConfigMapping(prefix = "lakehouse.service")
public interface ServiceSettings {

    /** {@code lakehouse.service.name}: e.g. {@code catalog-service}; used in labels and event sources. */
    String name();

    /** {@code lakehouse.service.schema}: the PostgreSQL schema this service owns. */
    String schema();

    Outbox outbox();

    /** CloudEvents {@code source} of this service's events. */
    default String eventSource() {
        return "/lakehouse/" + name();
    }

    interface Outbox {
        /** {@code lakehouse.service.outbox.relay-enabled}, default true. */
        @WithDefault("true")
        boolean relayEnabled();

        /** {@code lakehouse.service.outbox.sweep-interval}, default 5s: fallback when a NOTIFY is missed. */
        @WithDefault("5s")
        Duration sweepInterval();

        /**
         * {@code lakehouse.service.outbox.batch-size}, default 2000: rows per pass (one transaction, one Kafka round).
         * A lone event makes a pass of one; a backlog (after a Kafka outage) goes out in passes of this size, whose
         * fixed cost (four round trips to PostgreSQL, one wait for Kafka's acks) a larger batch spreads thinner.
         */
        @WithDefault("2000")
        int batchSize();

        /**
         * {@code lakehouse.service.outbox.pass-spacing}, default 20ms: the least time from one pass's start to the
         * next's. A commit after a quiet moment is published at once; under a stream of commits, each pass takes what
         * was committed meanwhile. Every produce request wakes a fetch of every consumer group (their fetches wait for
         * one byte), so passes of one event cost the broker and each consumer one round each per event
         * (docs/benchmarks.md "Relay passes spaced"). 0 turns the spacing off.
         */
        @WithDefault("20ms")
        Duration passSpacing();

        /** {@code lakehouse.service.outbox.send-timeout}, default 15s for Kafka acks of a batch. */
        @WithDefault("15s")
        Duration sendTimeout();

        /** {@code lakehouse.service.outbox.retention}, default 1h: published rows kept for inspection. */
        @WithDefault("1h")
        Duration retention();

        /**
         * {@code lakehouse.service.outbox.halt-after-ack-file}, unset by default: a fault-injection hook
         * for the fault suite ({@code relay-crash}), never set in production. When this file exists once
         * Kafka acknowledged a batch, the relay deletes it and halts the JVM before marking the rows
         * published: the crash at the relay's worst moment, on demand instead of by chance.
         */
        Optional<String> haltAfterAckFile();

        /**
         * {@code lakehouse.service.outbox.topic-prefix}, unset by default: events go to the contract's topics
         * ({@code lakehouse.instances}, …). The test runs set one ({@code test.}) and read the prefixed topics, so
         * that a local stack on the same broker never consumes the tests' events, nor the tests the stack's.
         */
        Optional<String> topicPrefix();
    }
}
