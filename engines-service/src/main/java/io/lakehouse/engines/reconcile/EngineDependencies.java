package io.lakehouse.engines.reconcile;

import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.InstanceDependencies;
import io.lakehouse.common.security.Subject;
import io.lakehouse.engines.store.CatalogStore;
import io.lakehouse.engines.store.UserGroupsStore;
import io.lakehouse.common.instances.GrantStore;
import io.lakehouse.common.instances.OidcClientStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The engines' dependencies, from the tables their consumers keep (catalogs, OIDC clients, grants, group members). */
@ApplicationScoped
public class EngineDependencies implements InstanceDependencies {

    private final CatalogStore catalogs;
    private final OidcClientStore oidcClients;
    private final GrantStore grants;
    private final UserGroupsStore userGroups;

    EngineDependencies(CatalogStore catalogs, OidcClientStore oidcClients, GrantStore grants,
            UserGroupsStore userGroups) {
        this.catalogs = catalogs;
        this.oidcClients = oidcClients;
        this.grants = grants;
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
    public Uni<List<Subject>> grants(String namespace, String name) {
        return grants.of(namespace, name);
    }

    @Override
    public Uni<Map<String, List<String>>> groupMembers(String namespace, String name) {
        return userGroups.membersOfGrantedGroups(namespace, name);
    }
}
