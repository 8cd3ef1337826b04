package io.lakehouse.engines.events;

import io.lakehouse.common.instances.OidcClientEvents;
import io.lakehouse.engines.domain.EngineKinds;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/** The OIDC clients of our instances ({@link OidcClientEvents}): an instance waiting for one goes on. */
@ApplicationScoped
public class OidcClientsConsumer {

    private final OidcClientEvents clients;

    OidcClientsConsumer(OidcClientEvents clients) {
        this.clients = clients;
    }

    @Incoming("oidc-clients")
    public CompletionStage<Void> consume(Message<byte[]> message) {
        return clients.consume(message, kind -> EngineKinds.ALL.find(kind).isPresent());
    }
}
