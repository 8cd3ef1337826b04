package io.lakehouse.engines.reconcile;

import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.Granted;
import io.lakehouse.common.instances.InstanceDependencies;
import io.lakehouse.engines.store.CatalogStore;
import io.lakehouse.engines.store.UserGroupsStore;
import io.lakehouse.common.instances.OidcClientStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** The engines' dependencies, from the tables their consumers keep (catalogs, OIDC clients, grants, group members). */
@ApplicationScoped
public class EngineDependencies implements InstanceDependencies {

    private final CatalogStore catalogs;
    private final OidcClientStore oidcClients;
    private final UserGroupsStore userGroups;

    EngineDependencies(CatalogStore catalogs, OidcClientStore oidcClients, UserGroupsStore userGroups) {
        this.catalogs = catalogs;
        this.oidcClients = oidcClients;
        this.userGroups = userGroups;
    }

    @Override
    public Uni<Optional<CatalogRef>> catalog(String namespace, String name) {
        return catalogs.find(namespace, name);
    }

    @Override
    public Uni<Boolean> oidcClientReady(String namespace, String name) {
        return oidcClients.ready(namespace, name);
    }

    @Override
    public Uni<Granted> granted(String namespace, String name) {
        return userGroups.granted(namespace, name);
    }
}
