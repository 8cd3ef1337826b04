package io.lakehouse.engines.events;

import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.instances.GrantEvents;
import io.lakehouse.common.instances.GrantStore;
import io.lakehouse.common.instances.OidcClientEvents;
import io.lakehouse.common.instances.OidcClientStore;
import io.lakehouse.engines.domain.EngineKinds;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.function.Predicate;

/**
 * The {@code lakehouse.access} events on our instances, handed over by common's one consumer of that topic: the
 * grants of the kinds that read them (Trino's access rules follow them) and the OIDC clients (an instance waiting for
 * one goes on).
 */
@ApplicationScoped
class InstanceAccessEvents {

    private static final Predicate<String> OUR_KINDS = kind -> EngineKinds.ALL.find(kind).isPresent();

    @Produces
    @Singleton
    GrantEvents grants(GrantStore store) {
        return new GrantEvents(store, EngineKinds.ALL);
    }

    @Produces
    @Singleton
    OidcClientEvents oidcClients(OidcClientStore clients, ServiceSettings service) {
        return new OidcClientEvents(clients, service.schema(), OUR_KINDS);
    }
}
