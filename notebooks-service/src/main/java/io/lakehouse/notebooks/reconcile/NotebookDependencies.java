package io.lakehouse.notebooks.reconcile;

import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.InstanceDependencies;
import io.lakehouse.common.instances.PassColumns;
import io.lakehouse.common.instances.PassDependencies;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * The hubs' dependencies, from the tables their consumers keep (OIDC clients, grants). A hub names its
 * catalog on the Lakehouse tab (a reference like the others, see {@code KnownInstanceStore}), never in
 * the framework's {@code spec.catalog}: no catalog gate here.
 */
@ApplicationScoped
public class NotebookDependencies implements InstanceDependencies {

    @Override
    public Uni<Optional<CatalogRef>> catalog(String namespace, String name) {
        return Uni.createFrom().item(Optional.empty());
    }

    @Override
    public String passColumns() {
        return PassColumns.OIDC_CLIENT_READY + PassColumns.GRANTS;
    }

    @Override
    public PassDependencies passDependencies(Row row) {
        return new PassDependencies(null, PassColumns.oidcClientReady(row), PassColumns.granted(row));
    }
}
