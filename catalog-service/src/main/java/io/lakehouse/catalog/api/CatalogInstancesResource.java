package io.lakehouse.catalog.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.catalog.domain.CatalogInstance;
import io.lakehouse.catalog.store.DependentsStore;
import io.lakehouse.common.api.Paging;
import io.lakehouse.catalog.store.InstanceStore;
import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.security.Authorizer;
import io.lakehouse.common.security.Role;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;

/** {@code /api/v1/namespaces/{ns}/instances/iceberg-catalog}: the catalog instances of a namespace. */
@Path("/api/v1/namespaces/{namespace}/instances/" + CatalogInstance.KIND)
@Produces(MediaType.APPLICATION_JSON)
public class CatalogInstancesResource {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private final CatalogInstanceService service;
    private final InstanceStore store;
    private final DependentsStore dependents;
    private final Authorizer authorizer;
    private final SecurityIdentity caller;
    private final String domain;

    CatalogInstancesResource(CatalogInstanceService service, InstanceStore store, DependentsStore dependents,
            Authorizer authorizer, SecurityIdentity caller, ClusterSettings cluster) {
        this.service = service;
        this.store = store;
        this.dependents = dependents;
        this.authorizer = authorizer;
        this.caller = caller;
        this.domain = cluster.domain();
    }

    @GET
    public Uni<InstancePage> list(@PathParam("namespace") String namespace, @QueryParam("limit") Integer limit,
            @QueryParam("continue") String continueToken) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.VIEWER);
        int size = Paging.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        return store.list(namespace, Paging.after(continueToken), size + 1).map(found -> {
            List<InstanceView> items = found.stream().limit(size).map(i -> InstanceView.of(i, domain)).toList();
            String next = found.size() > size ? Paging.token(items.get(size - 1).name()) : null;
            return new InstancePage(items, next);
        });
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(@PathParam("namespace") String namespace, CreateInstanceRequest request,
            UriInfo uri) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        return service.create(namespace, request, caller.getPrincipal().getName())
                .map(inst -> Response.created(uri.getAbsolutePathBuilder().path(inst.name()).build())
                        .entity(InstanceView.of(inst, domain)).build());
    }

    @GET
    @Path("{name}")
    public Uni<InstanceView> get(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.VIEWER);
        return service.get(namespace, PathParams.instance(namespace, name))
                .chain(i -> dependents.of(namespace, name).map(users -> InstanceView.of(i, domain, users)));
    }

    /** JSON merge patch of the capacity fields. */
    @PATCH
    @Path("{name}")
    @Consumes({"application/merge-patch+json", MediaType.APPLICATION_JSON})
    public Uni<InstanceView> patch(@PathParam("namespace") String namespace, @PathParam("name") String name,
            JsonNode patch) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        return service.patch(namespace, PathParams.instance(namespace, name), patch).map(i -> InstanceView.of(i, domain));
    }

    @DELETE
    @Path("{name}")
    public Uni<Response> delete(@PathParam("namespace") String namespace, @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        return service.delete(namespace, PathParams.instance(namespace, name))
                .map(i -> Response.accepted(InstanceView.of(i, domain)).build());
    }
}
