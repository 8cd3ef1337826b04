package io.lakehouse.access.api;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.common.security.Authorizer;
import io.lakehouse.common.security.Role;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** {@code .../instances/{kind}/{name}/grants} and {@code .../access}: who may open an instance. */
@Path("/api/v1/namespaces/{namespace}/instances/{kind}/{name}")
@Produces(MediaType.APPLICATION_JSON)
public class GrantsResource {

    private final GrantService service;
    private final Authorizer authorizer;
    private final SecurityIdentity caller;

    GrantsResource(GrantService service, Authorizer authorizer, SecurityIdentity caller) {
        this.service = service;
        this.authorizer = authorizer;
        this.caller = caller;
    }

    @GET
    @Path("grants")
    public Uni<GrantList> list(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @PathParam("name") String name) {
        InstanceKey key = authorized(namespace, kind, name, Role.VIEWER);
        return service.list(key).map(grants -> GrantList.of(key, grants));
    }

    @POST
    @Path("grants")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<GrantList> add(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @PathParam("name") String name, GrantRequest request) {
        InstanceKey key = authorized(namespace, kind, name, Role.ADMIN);
        GrantRequest body = request == null ? new GrantRequest(null) : request;
        return service.add(key, body.validSubjects()).map(grants -> GrantList.of(key, grants));
    }

    @DELETE
    @Path("grants/{subject: .+}")
    public Uni<Response> remove(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @PathParam("name") String name, @PathParam("subject") String subject) {
        InstanceKey key = authorized(namespace, kind, name, Role.ADMIN);
        return service.remove(key, PathParams.subject(subject)).map(v -> Response.noContent().build());
    }

    @GET
    @Path("access")
    public Uni<AccessView> access(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @PathParam("name") String name) {
        InstanceKey key = authorized(namespace, kind, name, Role.VIEWER);
        return service.list(key).map(grants -> AccessView.of(key, grants));
    }

    /** The role check comes first: a caller without a role learns nothing about kinds or names. */
    private InstanceKey authorized(String namespace, String kind, String name, Role needed) {
        authorizer.require(caller, PathParams.namespace(namespace), needed);
        return PathParams.grantable(namespace, kind, name);
    }
}
