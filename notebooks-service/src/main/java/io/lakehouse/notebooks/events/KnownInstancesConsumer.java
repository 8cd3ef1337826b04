package io.lakehouse.notebooks.events;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.lakehouse.common.outbox.Inbox;
import io.lakehouse.notebooks.kinds.jupyterhub.KnownInstance;
import io.lakehouse.notebooks.reconcile.ReconcileLoop;
import io.lakehouse.notebooks.store.KnownInstanceStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Learns the instances hubs may reference from {@code lakehouse.instances} (catalog and engines
 * events): their endpoints, the Secrets their clients read, whether they are gone. Each change wakes
 * the hubs that reference the instance (by the leader, in the same transaction), whose configuration
 * and status then follow without anyone editing the hub.
 */
@ApplicationScoped
public class KnownInstancesConsumer {

    private static final String CONSUMER = "known-instances";

    private final IncomingEvents incoming;
    private final Pool pool;
    private final KnownInstanceStore known;
    private final ReconcileLoop loop;

    KnownInstancesConsumer(IncomingEvents incoming, Pool pool, KnownInstanceStore known, ReconcileLoop loop) {
        this.incoming = incoming;
        this.pool = pool;
        this.known = known;
        this.loop = loop;
    }

    @Incoming("lakehouse-instances")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return incoming.handleInstances(message, KnownInstanceStore::referenced, KnownInstancesConsumer::check,
                this::apply);
    }

    private Uni<Void> apply(LakehouseEvent event) {
        JsonNode d = event.data();
        String namespace = d.get("namespace").asText();
        String kind = d.get("kind").asText();
        String name = d.get("name").asText();
        return pool.withTransaction(tx -> Inbox.firstDelivery(tx, event.id(), CONSUMER).chain(first -> !first
                ? Uni.createFrom().voidItem()
                : known.find(tx, namespace, kind, name)
                        .chain(before -> known.save(tx, KnownInstance.fromEvent(event.type().shortName(), d,
                                event.time(), before.orElse(null))))
                        .chain(hubs -> loop.wake(tx, hubs))));
    }

    private static void check(LakehouseEvent event) {
        JsonNode d = event.data();
        if (!d.path("namespace").isTextual() || !d.path("kind").isTextual() || !d.path("name").isTextual()) {
            throw new MalformedEventException("instance event without namespace, kind or name");
        }
    }
}
