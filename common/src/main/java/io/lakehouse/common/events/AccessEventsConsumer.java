package io.lakehouse.common.events;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The service's one consumer of {@code lakehouse.access} (channel {@code lakehouse-access}, one consumer group
 * per service): each event goes to the {@link AccessEventHandler} of its type, then to every
 * {@link AccessEventObserver}, through {@link IncomingEvents} (malformed records to the dead-letter topic, retries,
 * acknowledgement after the handlers' commits). A type no handler takes goes only to the observers.
 *
 * <p>One consumer rather than one per kind of event: each consumer is a polling thread, a heartbeat, a group
 * membership to rebalance and a few seconds of the service's stop (SmallRye pauses and drains channels one after
 * the other), while the topic carries a few events per user action.
 */
@ApplicationScoped
public class AccessEventsConsumer {

    private final IncomingEvents incoming;
    private final Map<EventType, AccessEventHandler> handlers;
    private final List<AccessEventObserver> observers;

    @Inject
    AccessEventsConsumer(IncomingEvents incoming, Instance<AccessEventHandler> handlers,
            Instance<AccessEventObserver> observers) {
        this(incoming, (Iterable<AccessEventHandler>) handlers, observers.stream().toList());
    }

    AccessEventsConsumer(IncomingEvents incoming, Iterable<AccessEventHandler> handlers,
            List<AccessEventObserver> observers) {
        this.incoming = incoming;
        this.handlers = byType(handlers);
        this.observers = List.copyOf(observers);
    }

    @Incoming("lakehouse-access")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return incoming.handle(message, this::check, this::apply);
    }

    private void check(LakehouseEvent event) {
        AccessEventHandler handler = handlers.get(event.type());
        if (handler != null) {
            handler.check(event);
        }
    }

    private Uni<Void> apply(LakehouseEvent event) {
        AccessEventHandler handler = handlers.get(event.type());
        Uni<Void> applied = handler == null ? Uni.createFrom().voidItem() : handler.apply(event);
        for (AccessEventObserver observer : observers) {
            applied = applied.chain(() -> observer.observe(event));
        }
        return applied;
    }

    /** Each access type to its one handler; two handlers of a type, or one of another topic, fail the start. */
    private static Map<EventType, AccessEventHandler> byType(Iterable<AccessEventHandler> handlers) {
        Map<EventType, AccessEventHandler> byType = new EnumMap<>(EventType.class);
        for (AccessEventHandler handler : handlers) {
            for (EventType type : handler.types()) {
                if (type.topic() != Topic.ACCESS) {
                    throw new IllegalStateException(type.cloudEventType() + " does not travel on lakehouse.access");
                }
                if (byType.putIfAbsent(type, handler) != null) {
                    throw new IllegalStateException("two handlers of " + type.cloudEventType());
                }
            }
        }
        return byType;
    }
}
