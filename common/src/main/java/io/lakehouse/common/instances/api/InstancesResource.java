package io.lakehouse.common.instances.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.api.Paging;
import io.lakehouse.common.audit.SuccessStatus;
import io.lakehouse.common.instances.InstanceContext;
import io.lakehouse.common.instances.InstanceKind;
import io.lakehouse.common.instances.InstanceKinds;
import io.lakehouse.common.instances.InstanceStore;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;

/**
 * The instance API of a service's kinds, {@code /api/v1/namespaces/{ns}/instances/{kind}}. A service
 * subclasses it with that {@code @Path} (a resource in {@code common} would be served by every
 * service). The role check comes before anything else: a caller without a role in the namespace
 * learns nothing, not even whether a kind exists. The mutating methods declare their {@link SuccessStatus}: their audit
 * outcome commits with their change.
 */
public abstract class InstancesResource<C extends InstanceContext> {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;

    private final InstanceKinds<C> kinds;
    private final InstanceService<C> service;
    private final InstanceStore store;
    private final Authorizer authorizer;
    private final SecurityIdentity caller;
    private final C ctx;

    protected InstancesResource(InstanceKinds<C> kinds, InstanceService<C> service, InstanceStore store,
            Authorizer authorizer, SecurityIdentity caller, C ctx) {
        this.kinds = kinds;
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
        InstanceKind<C> instanceKind = kinds.fromPath(kind);
        int size = Paging.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        return store.list(namespace, instanceKind.kind(), Paging.after(continueToken), size + 1).map(found -> {
            List<InstanceView> items = found.stream().limit(size)
                    .map(i -> InstanceView.of(i, instanceKind, ctx)).toList();
            String next = found.size() > size ? Paging.token(items.get(size - 1).name()) : null;
            return new InstancePage(items, next);
        });
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @SuccessStatus(201)
    public Uni<Response> create(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            CreateInstanceRequest request, UriInfo uri) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        InstanceKind<C> instanceKind = kinds.fromPath(kind);
        return service.create(namespace, instanceKind, request, caller.getPrincipal().getName())
                .map(inst -> Response.created(uri.getAbsolutePathBuilder().path(inst.name()).build())
                        .entity(InstanceView.of(inst, instanceKind, ctx)).build());
    }

    @GET
    @Path("{name}")
    public Uni<InstanceView> get(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.VIEWER);
        InstanceKind<C> instanceKind = kinds.fromPath(kind);
        String instance = PathParams.instance(namespace, kind, name);
        // One statement: the row and, where tracked, its users (InstanceStore.read).
        return service.read(namespace, instanceKind, instance)
                .map(read -> InstanceView.of(read.instance(), instanceKind, ctx, read.usedBy()));
    }

    /** JSON merge patch of the capacity fields. */
    @PATCH
    @Path("{name}")
    @Consumes({"application/merge-patch+json", MediaType.APPLICATION_JSON})
    @SuccessStatus(200)
    public Uni<InstanceView> patch(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @PathParam("name") String name, JsonNode patch) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        InstanceKind<C> instanceKind = kinds.fromPath(kind);
        return service.patch(namespace, instanceKind, PathParams.instance(namespace, kind, name), patch)
                .map(i -> InstanceView.of(i, instanceKind, ctx));
    }

    @DELETE
    @Path("{name}")
    @SuccessStatus(202)
    public Uni<Response> delete(@PathParam("namespace") String namespace, @PathParam("kind") String kind,
            @PathParam("name") String name) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.OPERATOR);
        InstanceKind<C> instanceKind = kinds.fromPath(kind);
        return service.delete(namespace, instanceKind, PathParams.instance(namespace, kind, name))
                .map(i -> Response.accepted(InstanceView.of(i, instanceKind, ctx)).build());
    }
}
