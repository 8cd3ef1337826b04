package io.lakehouse.engines.api;

import io.lakehouse.common.instances.InstanceStore;
import io.lakehouse.common.instances.api.InstanceService;
import io.lakehouse.common.instances.api.InstancesResource;
import io.lakehouse.common.security.Authorizer;
import io.lakehouse.engines.domain.EngineKinds;
import io.lakehouse.engines.reconcile.EngineContext;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The instance API ({@link InstancesResource}) for {@code trino}, {@code spark-connect}, {@code mlflow}, {@code nifi}. */
@Path("/api/v1/namespaces/{namespace}/instances/{kind}")
@Produces(MediaType.APPLICATION_JSON)
public class EngineInstancesResource extends InstancesResource<EngineContext> {

    EngineInstancesResource(InstanceService<EngineContext> service, InstanceStore store, Authorizer authorizer,
            SecurityIdentity caller, EngineContext ctx) {
        super(EngineKinds.ALL, service, store, authorizer, caller, ctx);
    }
}
