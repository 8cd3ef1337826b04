package io.lakehouse.notebooks.events;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.lakehouse.notebooks.kinds.jupyterhub.KnownInstance;
import io.lakehouse.notebooks.store.KnownInstanceStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Learns the instances hubs may reference from {@code lakehouse.instances} (catalog and engines
 * events): their endpoints, the Secrets their clients read, whether they are gone. Each change wakes
 * the hubs that reference the instance (by the leader, in the same statement), whose configuration
 * and status then follow without anyone editing the hub.
 */
@ApplicationScoped
public class KnownInstancesConsumer {

    private static final String CONSUMER = "known-instances";

    private final IncomingEvents incoming;
    private final KnownInstanceStore known;

    KnownInstancesConsumer(IncomingEvents incoming, KnownInstanceStore known) {
        this.incoming = incoming;
        this.known = known;
    }

    @Incoming("lakehouse-instances")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return incoming.handleInstances(message, KnownInstanceStore::referenced, KnownInstancesConsumer::check,
                this::apply);
    }

    private Uni<Void> apply(LakehouseEvent event) {
        String type = event.type().shortName();
        return known.apply(event.id(), CONSUMER, KnownInstance.fromEvent(type, event.data(), event.time()),
                KnownInstance.appears(type));
    }

    private static void check(LakehouseEvent event) {
        JsonNode d = event.data();
        if (!d.path("namespace").isTextual() || !d.path("kind").isTextual() || !d.path("name").isTextual()) {
            throw new MalformedEventException("instance event without namespace, kind or name");
        }
    }
}
