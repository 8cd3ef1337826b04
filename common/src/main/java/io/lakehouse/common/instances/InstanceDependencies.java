package io.lakehouse.common.instances;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import java.util.Optional;

/**
 * What instances depend on outside their own rows and objects, as the service learnt it from other
 * services' events (kept in its own tables by its consumers): the API checks a referenced catalog,
 * the reconciler gates workloads on the OIDC client and builds access objects from the grants.
 */
public interface InstanceDependencies {

    /** The namespace's {@code iceberg-catalog} of that name, as catalog-service last announced it. */
    Uni<Optional<CatalogRef>> catalog(String namespace, String name);

    /**
     * The select-list items (each after a comma) that read what a pass needs of the dependencies in the statement that
     * reads the instance's row: sub-selects over the {@code instances} row ({@link PassColumns}). Empty when the
     * service's kinds depend on nothing.
     */
    default String passColumns() {
        return "";
    }

    /** Decodes {@link #passColumns} from the pass's row. */
    default PassDependencies passDependencies(Row row) {
        return PassDependencies.NONE;
    }
}
