package io.lakehouse.notebooks.events;

import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.instances.GrantEvents;
import io.lakehouse.common.instances.GrantStore;
import io.lakehouse.common.instances.InstanceKinds;
import io.lakehouse.common.instances.OidcClientEvents;
import io.lakehouse.common.instances.OidcClientStore;
import io.lakehouse.notebooks.kinds.jupyterhub.HubInstance;
import io.lakehouse.notebooks.reconcile.NotebookContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.function.Predicate;

/**
 * The {@code lakehouse.access} events on our instances, handed over by common's one consumer of that topic: the
 * grants (which the hubs' sign-in lists follow) and the OIDC clients (an instance waiting for one goes on).
 */
@ApplicationScoped
class InstanceAccessEvents {

    private static final Predicate<String> OUR_KINDS = HubInstance.KIND::equals;

    @Produces
    @Singleton
    GrantEvents grants(GrantStore store, InstanceKinds<NotebookContext> kinds) {
        return new GrantEvents(store, kinds);
    }

    @Produces
    @Singleton
    OidcClientEvents oidcClients(OidcClientStore clients, ServiceSettings service) {
        return new OidcClientEvents(clients, service.schema(), OUR_KINDS);
    }
}
