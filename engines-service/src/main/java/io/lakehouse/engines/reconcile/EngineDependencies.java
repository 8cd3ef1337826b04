package io.lakehouse.engines.reconcile;

import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.InstanceDependencies;
import io.lakehouse.common.instances.PassColumns;
import io.lakehouse.common.instances.PassDependencies;
import io.lakehouse.engines.store.CatalogStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * The engines' dependencies, from the tables their consumers keep: catalogs, OIDC clients, grants and the groups users
 * were seen in (Trino reads no groups from tokens: its group file lists the members of granted groups).
 */
@ApplicationScoped
public class EngineDependencies implements InstanceDependencies {

    private final CatalogStore catalogs;

    EngineDependencies(CatalogStore catalogs) {
        this.catalogs = catalogs;
    }

    @Override
    public Uni<Optional<CatalogRef>> catalog(String namespace, String name) {
        return catalogs.find(namespace, name);
    }

    @Override
    public String passColumns() {
        return CatalogStore.PASS_COLUMN + PassColumns.OIDC_CLIENT_READY + PassColumns.GRANTS_WITH_MEMBERS;
    }

    @Override
    public PassDependencies passDependencies(Row row) {
        return new PassDependencies(CatalogStore.passCatalog(row), PassColumns.oidcClientReady(row),
                PassColumns.granted(row));
    }
}
