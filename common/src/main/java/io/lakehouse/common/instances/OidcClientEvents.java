package io.lakehouse.common.instances;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.events.AccessEventHandler;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.events.MalformedEventException;
import io.smallrye.mutiny.Uni;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@code access.oidc-client-ready} / {@code -removed} for a service's kinds, kept in its
 * {@link OidcClientStore}: an instance that waits for its {@code <name>-oidc} Secret is reconciled again
 * as soon as access-service has written it (by the leader, woken by the statement that records it: this replica
 * may not be the one that reconciles). A service whose instances have OIDC clients produces this handler with
 * its kinds.
 */
public class OidcClientEvents implements AccessEventHandler {

    private static final String CONSUMER = "oidc-clients";
    private static final Set<EventType> TYPES = Set.of(EventType.OIDC_CLIENT_READY, EventType.OIDC_CLIENT_REMOVED);

    private final OidcClientStore clients;
    private final String schema;
    private final Predicate<String> ourKind;

    /** Keeps the clients of instances whose kind {@code ourKind} accepts; wakes the reconciler of {@code schema}. */
    public OidcClientEvents(OidcClientStore clients, String schema, Predicate<String> ourKind) {
        this.clients = clients;
        this.schema = schema;
        this.ourKind = ourKind;
    }

    @Override
    public Set<EventType> types() {
        return TYPES;
    }

    @Override
    public Uni<Void> apply(LakehouseEvent event) {
        JsonNode d = event.data();
        if (!ourKind.test(d.get("kind").asText())) {
            return Uni.createFrom().voidItem();
        }
        String namespace = d.get("namespace").asText();
        String name = d.get("name").asText();
        return event.type() == EventType.OIDC_CLIENT_READY
                ? clients.put(event.id(), CONSUMER, namespace, name, d.get("kind").asText(),
                        d.path("secretName").asText(name + "-oidc"), schema)
                : clients.remove(event.id(), CONSUMER, namespace, name, schema);
    }

    @Override
    public void check(LakehouseEvent event) {
        JsonNode d = event.data();
        if (!d.path("namespace").isTextual() || !d.path("kind").isTextual() || !d.path("name").isTextual()) {
            throw new MalformedEventException("OIDC client event without namespace, kind or name");
        }
    }
}
