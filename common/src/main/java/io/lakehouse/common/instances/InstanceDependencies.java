package io.lakehouse.common.instances;

import io.smallrye.mutiny.Uni;
import java.util.Optional;

/**
 * What instances depend on outside their own rows and objects, as the service learnt it from other
 * services' events (kept in its own tables by its consumers): the API checks a referenced catalog,
 * the reconciler gates workloads on the OIDC client and builds access objects from the grants.
 */
public interface InstanceDependencies {

    /** The namespace's {@code iceberg-catalog} of that name, as catalog-service last announced it. */
    Uni<Optional<CatalogRef>> catalog(String namespace, String name);

    /** Whether access-service has written the instance's {@code <name>-oidc} client Secret. */
    Uni<Boolean> oidcClientReady(String namespace, String name);

    /** Who holds a grant on the instance, and the members of the granted groups where the service tracks them. */
    Uni<Granted> granted(String namespace, String name);
}
