package io.lakehouse.notebooks.api;

import io.lakehouse.common.audit.SuccessStatus;
import io.lakehouse.common.instances.InstanceKind;
import io.lakehouse.common.instances.InstanceKinds;
import io.lakehouse.common.instances.InstanceStore;
import io.lakehouse.common.instances.api.InstanceService;
import io.lakehouse.common.instances.api.InstanceView;
import io.lakehouse.common.instances.api.InstancesResource;
import io.lakehouse.common.instances.api.PathParams;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.security.Authorizer;
import io.lakehouse.common.security.Role;
import io.lakehouse.notebooks.reconcile.NotebookContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The instance API ({@link InstancesResource}) for {@code jupyterhub}, whose DELETE also takes the
 * opt-in {@code ?removeUserVolumes=true}.
 */
@Path("/api/v1/namespaces/{namespace}/instances/{kind}")
@Produces(MediaType.APPLICATION_JSON)
public class NotebookInstancesResource extends InstancesResource<NotebookContext> {

    static final String REMOVE_USER_VOLUMES = "removeUserVolumes";

    private final NotebookService service;
    private final Authorizer authorizer;
    private final SecurityIdentity caller;
    private final NotebookContext ctx;
    private final InstanceKinds<NotebookContext> kinds;
    private final HttpServerRequest request;

    NotebookInstancesResource(InstanceService<NotebookContext> service, InstanceStore store, Authorizer authorizer,
            SecurityIdentity caller, NotebookContext ctx, InstanceKinds<NotebookContext> kinds,
            HttpServerRequest request) {
        super(kinds, service, store, authorizer, caller, ctx);
        this.service = (NotebookService) service;
        this.authorizer = authorizer;
        this.caller = caller;
        this.ctx = ctx;
        this.kinds = kinds;
        this.request = request;
    }

    /**
     * The framework's DELETE (same signature, so one endpoint) plus the query parameter, read from the
     * request: the users' volumes go only when the caller says so.
     */
    @DELETE
    @Path("{name}")
    @SuccessStatus(202)
    @Parameter(name = REMOVE_USER_VOLUMES, in = ParameterIn.QUERY,
            schema = @Schema(type = SchemaType.BOOLEAN, defaultValue = "false"),
            description = "also delete the hub's user volumes (claim-<hub>-<user>, the users' data); kept by default")
    @Override
    public Uni<Response> delete(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        InstanceKind<NotebookContext> instanceKind = kinds.fromPath(kind);
        boolean removeUserVolumes = removeUserVolumes(request.getParam(REMOVE_USER_VOLUMES));
        return service.delete(namespace, instanceKind, PathParams.instance(namespace, kind, name), removeUserVolumes)
                .map(i -> Response.accepted(InstanceView.of(i, instanceKind, ctx)).build());
    }

    static boolean removeUserVolumes(String value) {
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw ApiException.badRequest(REMOVE_USER_VOLUMES + " must be true or false");
    }
}
