package io.lakehouse.access.api;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.access.store.GrantIndex;
import io.lakehouse.access.store.GroupSightings;
import io.lakehouse.common.problem.ApiException;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/v1/authz?host=}: the platform gateway's forward-auth question, answered from
 * memory. 200 when the caller or one of its groups holds a grant on the instance behind the host. The
 * caller's groups are recorded on the way ({@link GroupSightings}).
 */
@Path("/api/v1/authz")
@Produces(MediaType.APPLICATION_JSON)
public class AuthzResource {

    private final GrantIndex index;
    private final GroupSightings sightings;
    private final SecurityIdentity caller;

    AuthzResource(GrantIndex index, GroupSightings sightings, SecurityIdentity caller) {
        this.index = index;
        this.sightings = sightings;
        this.caller = caller;
    }

    /** On the event loop: nothing here blocks. */
    @GET
    @NonBlocking
    public AuthzAnswer check(@QueryParam("host") String host) {
        if (host == null || host.isBlank()) {
            throw ApiException.badRequest("the host query parameter is required");
        }
        String user = caller.getPrincipal().getName();
        // Every web UI request of a signed-in user passes here: the groups of a valid platform token are
        // the group members Trino's group file is made of (engines-service).
        sightings.seen(user, caller.getRoles(), IssuedAt.of(caller));
        InstanceKey key = index.instanceAt(host)
                .orElseThrow(() -> ApiException.notFound("no instance is served at '" + host + "'"));
        if (!index.allows(key, user, caller.getRoles())) {
            throw ApiException.forbidden("you have no grant on " + key.kind() + " '" + key.name() + "'");
        }
        return new AuthzAnswer(key.namespace(), key.kind(), key.name(), user);
    }

    /** What the gateway may pass on to the instance. */
    public record AuthzAnswer(String namespace, String kind, String name, String user) {}
}
