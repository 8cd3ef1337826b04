package io.lakehouse.common.events;

import io.smallrye.mutiny.Uni;

/**
 * Sees every known event of {@code lakehouse.access} through the service's one consumer of the topic
 * ({@link AccessEventsConsumer}), after the handler of its type if there is one. access-service's audit log is one:
 * a consumer group of its own would fetch and acknowledge every event of the topic a second time.
 */
public interface AccessEventObserver {

    /** Records the event once (idempotent by event id); called again on each retry of the event. */
    Uni<Void> observe(LakehouseEvent event);
}
