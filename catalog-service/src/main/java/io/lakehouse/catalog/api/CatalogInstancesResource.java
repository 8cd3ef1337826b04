package io.lakehouse.catalog.api;

import io.lakehouse.catalog.domain.CatalogKind;
import io.lakehouse.catalog.domain.CatalogKinds;
import io.lakehouse.catalog.reconcile.CatalogContext;
import io.lakehouse.common.instances.InstanceStore;
import io.lakehouse.common.instances.api.InstanceService;
import io.lakehouse.common.instances.api.InstancesResource;
import io.lakehouse.common.security.Authorizer;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * The instance API ({@link InstancesResource}) for {@code iceberg-catalog}, the only kind here: the
 * route takes no other (404 before anything else, as for any unknown path).
 */
@Path("/api/v1/namespaces/{namespace}/instances/{kind: " + CatalogKind.KIND + "}")
@Produces(MediaType.APPLICATION_JSON)
public class CatalogInstancesResource extends InstancesResource<CatalogContext> {

    CatalogInstancesResource(InstanceService<CatalogContext> service, InstanceStore store, Authorizer authorizer,
            SecurityIdentity caller, CatalogContext ctx) {
        super(CatalogKinds.ALL, service, store, authorizer, caller, ctx);
    }
}
