package io.lakehouse.engines.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.api.Paging;
import io.lakehouse.common.security.Authorizer;
import io.lakehouse.common.security.Role;
import io.lakehouse.engines.domain.EngineKind;
import io.lakehouse.engines.domain.EngineKinds;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.store.InstanceStore;
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

/**
 * {@code /api/v1/namespaces/{ns}/instances/{kind}} for {@code trino}, {@code spark-connect},
 * {@code mlflow} and {@code nifi}. The role check comes before anything else: a caller without a role
 * in the namespace learns nothing, not even whether a kind exists.
 */
@Path("/api/v1/namespaces/{namespace}/instances/{kind}")
@Produces(MediaType.APPLICATION_JSON)
public class EngineInstancesResource {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private final EngineService service;
    private final InstanceStore store;
    private final Authorizer authorizer;
    private final SecurityIdentity caller;
    private final EngineContext ctx;

    EngineInstancesResource(EngineService service, InstanceStore store, Authorizer authorizer, SecurityIdentity caller,
            EngineContext ctx) {
        this.service = service;
        this.store = store;
        this.authorizer = authorizer;
        this.caller = caller;
        this.ctx = ctx;
    }

    @GET
    public Uni<InstancePage> list(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @QueryParam("limit") Integer limit, @QueryParam("continue") String continueToken) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.VIEWER);
        EngineKind engine = EngineKinds.fromPath(kind);
        int size = Paging.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        return store.list(namespace, engine.kind(), Paging.after(continueToken), size + 1).map(found -> {
            List<InstanceView> items = found.stream().limit(size).map(i -> InstanceView.of(i, ctx)).toList();
            String next = found.size() > size ? Paging.token(items.get(size - 1).name()) : null;
            return new InstancePage(items, next);
        });
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            CreateInstanceRequest request, UriInfo uri) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        return service.create(namespace, EngineKinds.fromPath(kind), request, caller.getPrincipal().getName())
                .map(inst -> Response.created(uri.getAbsolutePathBuilder().path(inst.name()).build())
                        .entity(InstanceView.of(inst, ctx)).build());
    }

    @GET
    @Path("{name}")
    public Uni<InstanceView> get(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.VIEWER);
        EngineKind engine = EngineKinds.fromPath(kind);
        return service.get(namespace, engine, PathParams.instance(namespace, kind, name))
                .map(i -> InstanceView.of(i, ctx));
    }

    /** JSON merge patch of the capacity fields. */
    @PATCH
    @Path("{name}")
    @Consumes({"application/merge-patch+json", MediaType.APPLICATION_JSON})
    public Uni<InstanceView> patch(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @PathParam("name") String name, JsonNode patch) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        EngineKind engine = EngineKinds.fromPath(kind);
        return service.patch(namespace, engine, PathParams.instance(namespace, kind, name), patch)
                .map(i -> InstanceView.of(i, ctx));
    }

    @DELETE
    @Path("{name}")
    public Uni<Response> delete(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        EngineKind engine = EngineKinds.fromPath(kind);
        return service.delete(namespace, engine, PathParams.instance(namespace, kind, name))
                .map(i -> Response.accepted(InstanceView.of(i, ctx)).build());
    }
}
