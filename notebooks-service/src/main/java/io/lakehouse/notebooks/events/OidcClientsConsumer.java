package io.lakehouse.notebooks.events;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.lakehouse.common.outbox.Inbox;
import io.lakehouse.notebooks.kinds.jupyterhub.HubInstance;
import io.lakehouse.notebooks.reconcile.ReconcileLoop;
import io.lakehouse.notebooks.store.OidcClientStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * {@code access.oidc-client-ready} / {@code -removed} for our kinds: an instance that waits for its
 * {@code <name>-oidc} Secret is reconciled again as soon as access-service has written it (by the
 * leader, woken in the same transaction: this replica may not be the one that reconciles).
 */
@ApplicationScoped
public class OidcClientsConsumer {

    private static final String CONSUMER = "oidc-clients";

    private final IncomingEvents incoming;
    private final Pool pool;
    private final OidcClientStore clients;
    private final ReconcileLoop loop;

    OidcClientsConsumer(IncomingEvents incoming, Pool pool, OidcClientStore clients, ReconcileLoop loop) {
        this.incoming = incoming;
        this.pool = pool;
        this.clients = clients;
        this.loop = loop;
    }

    @Incoming("oidc-clients")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return incoming.handle(message, OidcClientsConsumer::check,
                event -> isOurs(event) ? apply(event) : Uni.createFrom().voidItem());
    }

    private Uni<Void> apply(LakehouseEvent event) {
        JsonNode d = event.data();
        String namespace = d.get("namespace").asText();
        String name = d.get("name").asText();
        return pool.withTransaction(tx -> Inbox.firstDelivery(tx, event.id(), CONSUMER).chain(first -> {
                    if (!first) {
                        return Uni.createFrom().voidItem();
                    }
                    return (event.type() == EventType.OIDC_CLIENT_READY
                            ? clients.put(tx, namespace, name, d.get("kind").asText(),
                                    d.path("secretName").asText(name + "-oidc"))
                            : clients.remove(tx, namespace, name))
                            .chain(() -> loop.wake(tx, List.of(namespace + "/" + name)));
                }));
    }

    private static boolean isOurs(LakehouseEvent event) {
        return (event.type() == EventType.OIDC_CLIENT_READY || event.type() == EventType.OIDC_CLIENT_REMOVED)
                && HubInstance.KIND.equals(event.data().path("kind").asText());
    }

    private static void check(LakehouseEvent event) {
        if (event.type() != EventType.OIDC_CLIENT_READY && event.type() != EventType.OIDC_CLIENT_REMOVED) {
            return;
        }
        JsonNode d = event.data();
        if (!d.path("namespace").isTextual() || !d.path("kind").isTextual() || !d.path("name").isTextual()) {
            throw new MalformedEventException("OIDC client event without namespace, kind or name");
        }
    }
}
