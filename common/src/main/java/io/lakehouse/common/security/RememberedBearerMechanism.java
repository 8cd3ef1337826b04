package io.lakehouse.common.security;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * Tried before OIDC's mechanism: a bearer token verified lately ({@link VerifiedTokens}) gets its identity back,
 * bound to this request. Any other request gets no answer here and OIDC authenticates it (and answers 401 with its
 * challenge). Done as a mechanism, not an identity provider, because OIDC's mechanism decodes the token's claims
 * (base64 and JSON) before it asks any provider, and the provider manager runs the augmentors again: together a
 * tenth of a read's CPU for an identity already known.
 */
@ApplicationScoped
public class RememberedBearerMechanism implements HttpAuthenticationMechanism {

    private static final String SCHEME = "Bearer ";

    private final VerifiedTokens verified;

    RememberedBearerMechanism(VerifiedTokens verified) {
        this.verified = verified;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        String token = bearerToken(context.request().getHeader(HttpHeaders.AUTHORIZATION));
        SecurityIdentity known = token == null ? null : verified.find(token).orElse(null);
        if (known == null) {
            return Uni.createFrom().nullItem();
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder(known)
                .addAttribute(VerifiedTokens.ROUTING_CONTEXT, context)
                .addAttribute(VerifiedTokens.REQUEST_CONTEXT, context.get(VerifiedTokens.REQUEST_CONTEXT))
                .build());
    }

    /** The token of an {@code Authorization: Bearer <token>} header as clients send it, else null (OIDC's turn). */
    static String bearerToken(String authorization) {
        if (authorization == null || authorization.length() <= SCHEME.length()
                || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return null;
        }
        return authorization.substring(SCHEME.length());
    }

    /** None: OIDC's mechanism sends the 401 challenge. */
    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().nullItem();
    }

    /** It needs no identity provider (an empty set keeps it among the mechanisms). */
    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of();
    }

    /** Before OIDC's mechanism (the default priority, 1000). */
    @Override
    public int getPriority() {
        return DEFAULT_PRIORITY + 100;
    }
}
