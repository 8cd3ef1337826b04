package io.lakehouse.common.security;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Asked before OIDC's provider: a bearer token verified lately ({@link VerifiedTokens}) gets its identity back,
 * bound to this request; any other token gets no answer here, and OIDC verifies it.
 */
@ApplicationScoped
public class CachedTokenIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {

    private final VerifiedTokens verified;

    CachedTokenIdentityProvider(VerifiedTokens verified) {
        this.verified = verified;
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    /** Before OIDC's provider (the default priority, 1001). */
    @Override
    public int priority() {
        return SYSTEM_FIRST + 100;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request,
            AuthenticationRequestContext context) {
        return Uni.createFrom().item(verified.find(request.getToken().getToken()).map(known -> {
            RoutingContext rc = HttpSecurityUtils.getRoutingContextAttribute(request);
            return rc == null ? null : (SecurityIdentity) QuarkusSecurityIdentity.builder(known)
                    .addAttribute(VerifiedTokens.ROUTING_CONTEXT, rc)
                    .addAttribute(VerifiedTokens.REQUEST_CONTEXT, rc.get(VerifiedTokens.REQUEST_CONTEXT))
                    .build();
        }).orElse(null));
    }
}
