package io.lakehouse.catalog.events;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.catalog.domain.CatalogKind;
import io.lakehouse.catalog.store.DependentsStore;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.lakehouse.common.outbox.Inbox;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
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
    private final Pool pool;
    private final DependentsStore dependents;

    DependentsConsumer(IncomingEvents incoming, @ReactiveDataSource(IncomingEvents.POOL) Pool pool,
            DependentsStore dependents) {
        this.incoming = incoming;
        this.pool = pool;
        this.dependents = dependents;
    }

    @Incoming("lakehouse-instances")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return incoming.handleInstances(message, kind -> !CatalogKind.KIND.equals(kind), DependentsConsumer::check,
                this::apply);
    }

    private Uni<Void> apply(LakehouseEvent event) {
        JsonNode d = event.data();
        String namespace = d.get("namespace").asText();
        String kind = d.get("kind").asText();
        String name = d.get("name").asText();
        JsonNode catalog = d.path("spec").path("catalog");
        return pool.withTransaction(tx -> Inbox.firstDelivery(tx, event.id(), CONSUMER).chain(first -> {
            if (!first) {
                return Uni.createFrom().voidItem();
            }
            if (event.type() == EventType.INSTANCE_DELETED) {
                return dependents.remove(tx, namespace, kind, name);
            }
            return catalog.isTextual() ? dependents.upsert(tx, namespace, catalog.asText(), kind, name)
                    : Uni.createFrom().voidItem();
        }));
    }

    private static void check(LakehouseEvent event) {
        JsonNode d = event.data();
        if (!d.path("namespace").isTextual() || !d.path("kind").isTextual() || !d.path("name").isTextual()) {
            throw new MalformedEventException("instance event without namespace, kind or name");
        }
    }
}
