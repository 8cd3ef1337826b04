package io.lakehouse.access.api;

import io.lakehouse.access.domain.Subjects;
import io.lakehouse.access.store.MemberStore;
import io.lakehouse.common.audit.SuccessStatus;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.security.Authorizer;
import io.lakehouse.common.security.Role;
import io.lakehouse.common.security.Subject;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** {@code /api/v1/namespaces/{ns}/members}: who holds which role in a namespace. */
@Path("/api/v1/namespaces/{namespace}/members")
@Produces(MediaType.APPLICATION_JSON)
public class MembersResource {

    private final MemberService service;
    private final MemberStore store;
    private final Authorizer authorizer;
    private final SecurityIdentity caller;

    MembersResource(MemberService service, MemberStore store, Authorizer authorizer, SecurityIdentity caller) {
        this.service = service;
        this.store = store;
        this.authorizer = authorizer;
        this.caller = caller;
    }

    @GET
    public Uni<List<MemberView>> list(@PathParam("namespace") String namespace) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.VIEWER);
        return store.list(namespace).map(members -> members.stream().map(MemberView::of).toList());
    }

    @GET
    @Path("{subject: .+}")
    public Uni<MemberView> get(@PathParam("namespace") String namespace, @PathParam("subject") String subject) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.VIEWER);
        Subject who = PathParams.subject(subject);
        return store.get(namespace, who).map(m -> MemberView.of(
                m.orElseThrow(() -> ApiException.notFound(Subjects.notMember(namespace, who)))));
    }

    @PUT
    @Path("{subject: .+}")
    @SuccessStatus(200)
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<MemberView> put(@PathParam("namespace") String namespace, @PathParam("subject") String subject,
            MemberRequest request) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.ADMIN);
        Subject who = PathParams.subject(subject);
        Role role = Role.fromWireName(request == null ? null : request.role())
                .orElseThrow(() -> ApiException.invalid("role", "must be viewer, operator or admin"));
        return service.set(namespace, who, role).map(MemberView::of);
    }

    @DELETE
    @Path("{subject: .+}")
    public Uni<Response> delete(@PathParam("namespace") String namespace, @PathParam("subject") String subject) {
        authorizer.require(caller, PathParams.namespace(namespace), Role.ADMIN);
        return service.remove(namespace, PathParams.subject(subject)).map(v -> Response.noContent().build());
    }
}
