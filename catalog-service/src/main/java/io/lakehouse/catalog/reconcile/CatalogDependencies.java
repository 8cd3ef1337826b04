package io.lakehouse.catalog.reconcile;

import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.InstanceDependencies;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * What catalogs depend on: nothing but their own objects (no catalog of their own, no OIDC client,
 * no access objects). What depends on them is tracked (table {@code catalog_dependents}) and read
 * with the instance's row ({@code DependentsStore.USED_BY}).
 */
@ApplicationScoped
public class CatalogDependencies implements InstanceDependencies {

    @Override
    public Uni<Optional<CatalogRef>> catalog(String namespace, String name) {
        return Uni.createFrom().item(Optional.empty());
    }
}
