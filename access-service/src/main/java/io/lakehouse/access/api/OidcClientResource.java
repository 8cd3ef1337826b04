package io.lakehouse.access.api;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.access.oidc.OidcClientService;
import io.lakehouse.access.oidc.OidcClientView;
import io.lakehouse.common.security.Authorizer;
import io.lakehouse.common.security.Role;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code .../instances/{kind}/{name}/oidc-client}: state of the instance's OIDC client, and rotation. */
@Path("/api/v1/namespaces/{namespace}/instances/{kind}/{name}/oidc-client")
@Produces(MediaType.APPLICATION_JSON)
public class OidcClientResource {

    private final OidcClientService service;
    private final Authorizer authorizer;
    private final SecurityIdentity caller;

    OidcClientResource(OidcClientService service, Authorizer authorizer, SecurityIdentity caller) {
        this.service = service;
        this.authorizer = authorizer;
        this.caller = caller;
    }

    @GET
    public OidcClientView get(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @PathParam("name") String name) {
        return service.get(authorized(namespace, kind, name, Role.VIEWER));
    }

    @POST
    @Path("rotate")
    public OidcClientView rotate(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @PathParam("name") String name) {
        return service.rotate(authorized(namespace, kind, name, Role.ADMIN));
    }

    private InstanceKey authorized(String namespace, String kind, String name, Role needed) {
        authorizer.require(caller, PathParams.namespace(namespace), needed);
        return PathParams.grantable(namespace, kind, name);
    }
}
