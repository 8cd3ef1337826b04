package io.lakehouse.common.security;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Gives every authenticated caller its identity key as principal name (see {@link Subject}: the lowercased
 * {@code preferred_username}), so roles, grants, forward-auth, the deployer ({@code createdBy}) and the
 * audit log's "who" all see one spelling whatever case the identity provider sent.
 */
@ApplicationScoped
public class CanonicalPrincipal implements SecurityIdentityAugmentor {

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous()) {
            return Uni.createFrom().item(identity);
        }
        String name = identity.getPrincipal().getName();
        String key = Subject.normalizeUser(name);
        if (key.equals(name)) {
            return Uni.createFrom().item(identity);
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder(identity)
                .setPrincipal(new QuarkusPrincipal(key)).build());
    }
}
