package io.lakehouse.notebooks.api;

import io.lakehouse.common.instances.InstanceStore;
import io.lakehouse.common.instances.api.InstanceService;
import io.lakehouse.common.instances.api.InstancesResource;
import io.lakehouse.common.security.Authorizer;
import io.lakehouse.common.instances.InstanceKinds;
import io.lakehouse.notebooks.reconcile.NotebookContext;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The instance API ({@link InstancesResource}) for {@code jupyterhub}. */
@Path("/api/v1/namespaces/{namespace}/instances/{kind}")
@Produces(MediaType.APPLICATION_JSON)
public class NotebookInstancesResource extends InstancesResource<NotebookContext> {

    NotebookInstancesResource(InstanceService<NotebookContext> service, InstanceStore store, Authorizer authorizer,
            SecurityIdentity caller, NotebookContext ctx, InstanceKinds<NotebookContext> kinds) {
        super(kinds, service, store, authorizer, caller, ctx);
    }
}
