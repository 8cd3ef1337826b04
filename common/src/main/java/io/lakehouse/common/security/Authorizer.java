package io.lakehouse.common.security;

import io.lakehouse.common.config.SecuritySettings;
import io.lakehouse.common.problem.ApiException;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Answers "may the caller do this in that namespace?" from the local role projection. A caller with
 * no role at all gets the same 403 whether or not the target exists, so nothing leaks.
 */
@ApplicationScoped
public class Authorizer {

    private final RoleProjection roles;
    private final SecuritySettings settings;

    Authorizer(RoleProjection roles, SecuritySettings settings) {
        this.roles = roles;
        this.settings = settings;
    }

    /** The caller's effective role in the namespace: the highest of its own and its groups'. */
    public Optional<Role> effectiveRole(SecurityIdentity caller, String namespace) {
        if (caller.isAnonymous()) {
            return Optional.empty();
        }
        if (caller.getRoles().contains(settings.platformAdminGroup())) {
            return Optional.of(Role.ADMIN);
        }
        Optional<Role> best = roles.roleOf(namespace, Subject.user(caller.getPrincipal().getName()));
        for (String group : caller.getRoles()) {
            Optional<Role> role = roles.roleOf(namespace, Subject.group(group));
            if (role.isPresent() && (best.isEmpty() || role.get().includes(best.get()))) {
                best = role;
            }
        }
        return best;
    }

    /** Throws 403 unless the caller holds at least {@code needed} in the namespace. */
    public Role require(SecurityIdentity caller, String namespace, Role needed) {
        Optional<Role> role = effectiveRole(caller, namespace);
        if (role.isEmpty()) {
            throw ApiException.forbidden("you have no role in namespace '" + namespace + "'");
        }
        if (!role.get().includes(needed)) {
            throw ApiException.forbidden("this needs the " + needed.wireName() + " role in namespace '" + namespace
                    + "'; you are " + role.get().wireName());
        }
        return role.get();
    }
}
