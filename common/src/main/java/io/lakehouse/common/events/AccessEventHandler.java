package io.lakehouse.common.events;

import io.smallrye.mutiny.Uni;
import java.util.Set;

/**
 * What a service keeps of some {@code lakehouse.access} event types. A service reads that topic with one
 * consumer ({@link AccessEventsConsumer}), which hands each event to the handler bean of its type: a
 * service keeps what its handler beans ask for, and no Kafka consumer of its own per kind of event.
 */
public interface AccessEventHandler {

    /** The types this handler applies; no other handler of the service takes one of them. */
    Set<EventType> types();

    /** @throws MalformedEventException when the event lacks what {@link #apply} needs */
    void check(LakehouseEvent event);

    /** Applies the event once (its inbox row); called again on each retry, so it builds its work anew. */
    Uni<Void> apply(LakehouseEvent event);
}
