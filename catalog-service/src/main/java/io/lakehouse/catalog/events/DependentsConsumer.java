package io.lakehouse.catalog.events;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.catalog.domain.CatalogKind;
import io.lakehouse.catalog.store.DependentsStore;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Learns from {@code lakehouse.instances} which instances of other services use a catalog
 * ({@code spec.catalog}), so that deleting a catalog still in use is refused.
 */
@ApplicationScoped
public class DependentsConsumer {

    private static final String CONSUMER = "dependents";

    private final IncomingEvents incoming;
    private final DependentsStore dependents;

    DependentsConsumer(IncomingEvents incoming, DependentsStore dependents) {
        this.incoming = incoming;
        this.dependents = dependents;
    }

    @Incoming("lakehouse-instances")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return incoming.handleInstances(message, kind -> !CatalogKind.KIND.equals(kind), DependentsConsumer::check,
                this::apply);
    }

    /**
     * A deletion removes the instance from the dependents; an event naming a catalog records it; any other event (an
     * mlflow's, a nifi's) changes nothing here and costs no statement. Each change is one statement with its inbox row.
     */
    private Uni<Void> apply(LakehouseEvent event) {
        JsonNode d = event.data();
        String namespace = d.get("namespace").asText();
        String kind = d.get("kind").asText();
        String name = d.get("name").asText();
        JsonNode catalog = d.path("spec").path("catalog");
        if (event.type() == EventType.INSTANCE_DELETED) {
            return dependents.remove(event.id(), CONSUMER, namespace, kind, name);
        }
        return catalog.isTextual() ? dependents.upsert(event.id(), CONSUMER, namespace, catalog.asText(), kind, name)
                : Uni.createFrom().voidItem();
    }

    private static void check(LakehouseEvent event) {
        JsonNode d = event.data();
        if (!d.path("namespace").isTextual() || !d.path("kind").isTextual() || !d.path("name").isTextual()) {
            throw new MalformedEventException("instance event without namespace, kind or name");
        }
    }
}
