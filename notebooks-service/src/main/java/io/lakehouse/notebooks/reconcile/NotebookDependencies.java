package io.lakehouse.notebooks.reconcile;

import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.Granted;
import io.lakehouse.common.instances.InstanceDependencies;
import io.lakehouse.common.instances.GrantStore;
import io.lakehouse.common.instances.OidcClientStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * The hubs' dependencies, from the tables their consumers keep (OIDC clients, grants). A hub names its
 * catalog on the Lakehouse tab (a reference like the others, see {@code KnownInstanceStore}), never in
 * the framework's {@code spec.catalog}: no catalog gate here.
 */
@ApplicationScoped
public class NotebookDependencies implements InstanceDependencies {

    private final OidcClientStore oidcClients;
    private final GrantStore grants;

    NotebookDependencies(OidcClientStore oidcClients, GrantStore grants) {
        this.oidcClients = oidcClients;
        this.grants = grants;
    }

    @Override
    public Uni<Optional<CatalogRef>> catalog(String namespace, String name) {
        return Uni.createFrom().item(Optional.empty());
    }

    @Override
    public Uni<Boolean> oidcClientReady(String namespace, String name) {
        return oidcClients.ready(namespace, name);
    }

    @Override
    public Uni<Granted> granted(String namespace, String name) {
        return grants.of(namespace, name).map(Granted::of);
    }
}
