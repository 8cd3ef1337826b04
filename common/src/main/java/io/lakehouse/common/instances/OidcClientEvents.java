package io.lakehouse.common.instances;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.IncomingEvents;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.lakehouse.common.kube.ReconcileLoop;
import io.lakehouse.common.outbox.Inbox;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * {@code access.oidc-client-ready} / {@code -removed} for a service's kinds, kept in its
 * {@link OidcClientStore}: an instance that waits for its {@code <name>-oidc} Secret is reconciled again
 * as soon as access-service has written it (by the leader, woken in the same transaction: this replica
 * may not be the one that reconciles). Each service's consumer names its channel and its kinds.
 */
@ApplicationScoped
public class OidcClientEvents {

    private static final String CONSUMER = "oidc-clients";

    private final IncomingEvents incoming;
    private final Pool pool;
    private final OidcClientStore clients;
    private final String schema;

    OidcClientEvents(IncomingEvents incoming, Pool pool, OidcClientStore clients, ServiceSettings service) {
        this.incoming = incoming;
        this.pool = pool;
        this.clients = clients;
        this.schema = service.schema();
    }

    /** Takes {@code message}, keeping the clients of instances whose kind {@code ourKind} accepts. */
    public CompletionStage<Void> consume(Message<byte[]> message, Predicate<String> ourKind) {
        return incoming.handle(message, OidcClientEvents::check,
                event -> isClientEvent(event) && ourKind.test(event.data().path("kind").asText())
                        ? apply(event) : Uni.createFrom().voidItem());
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
                            .chain(() -> ReconcileLoop.wake(tx, schema, List.of(namespace + "/" + name)));
                }));
    }

    private static boolean isClientEvent(LakehouseEvent event) {
        return event.type() == EventType.OIDC_CLIENT_READY || event.type() == EventType.OIDC_CLIENT_REMOVED;
    }

    private static void check(LakehouseEvent event) {
        if (!isClientEvent(event)) {
            return;
        }
        JsonNode d = event.data();
        if (!d.path("namespace").isTextual() || !d.path("kind").isTextual() || !d.path("name").isTextual()) {
            throw new MalformedEventException("OIDC client event without namespace, kind or name");
        }
    }
}
