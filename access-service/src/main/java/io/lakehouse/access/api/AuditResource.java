package io.lakehouse.access.api;

import io.lakehouse.access.store.AuditEntry;
import io.lakehouse.access.store.AuditStore;
import io.lakehouse.common.config.SecuritySettings;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.security.Authorizer;
import io.lakehouse.common.security.Role;
import io.lakehouse.common.security.Subject;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * {@code GET /api/v1/audit?namespace=&since=&subject=&limit=&continue=}: who did what. A namespace's
 * admins read its entries; only the platform admins read across namespaces.
 */
@Path("/api/v1/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    private final AuditStore store;
    private final Authorizer authorizer;
    private final SecurityIdentity caller;
    private final SecuritySettings security;

    AuditResource(AuditStore store, Authorizer authorizer, SecurityIdentity caller, SecuritySettings security) {
        this.store = store;
        this.authorizer = authorizer;
        this.caller = caller;
        this.security = security;
    }

    /** @param subject the actor (user name, any case: actors are identity keys) to filter on */
    @GET
    public Uni<AuditPage> list(@QueryParam("namespace") String namespace, @QueryParam("since") String since,
            @QueryParam("subject") String subject, @QueryParam("limit") Integer limit,
            @QueryParam("continue") String continueToken) {
        if (namespace == null || namespace.isEmpty()) {
            if (!caller.getRoles().contains(security.platformAdminGroup())) {
                throw ApiException.forbidden("only platform admins read the audit log of every namespace");
            }
        } else {
            authorizer.require(caller, PathParams.namespace(namespace), Role.ADMIN);
        }
        int size = AuditQuery.limit(limit);
        String ns = namespace == null || namespace.isEmpty() ? null : namespace;
        String actor = subject == null || subject.isEmpty() ? null : Subject.normalizeUser(subject);
        return store.find(ns, AuditQuery.since(since), actor, AuditQuery.after(continueToken), size + 1)
                .map(found -> {
                    List<AuditEntry> items = found.stream().limit(size).toList();
                    String next = found.size() > size ? AuditQuery.token(items.get(size - 1).seq()) : null;
                    return new AuditPage(items, next);
                });
    }
}
