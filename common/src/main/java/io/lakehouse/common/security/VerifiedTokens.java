package io.lakehouse.common.security;

import io.lakehouse.common.config.SecuritySettings;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The identities of bearer tokens verified lately, so that the next request with the same token is not verified
 * again: parsing and checking a JWT (signature, issuer, audience, expiry) was most of a read's allocation (~60 %)
 * and a fifth of its CPU. Filled last among the augmentors (the identity as the API sees it) and read by
 * {@link RememberedBearerMechanism} before OIDC's mechanism. An entry lives until the token expires or for
 * {@code lakehouse.security.verified-tokens.ttl}, whichever comes first; only tokens that passed verification
 * get here, and a hit needs the same token, character for character. Bounded by {@code max-size}.
 */
@ApplicationScoped
public class VerifiedTokens implements SecurityIdentityAugmentor {

    /** Set by Quarkus OIDC: the token's {@code exp}, seconds since the epoch. */
    static final String EXPIRE_TIME = "quarkus.identity.expire-time";
    /** Attributes of the request that verified the token: never kept, set anew from each request. */
    static final String ROUTING_CONTEXT = RoutingContext.class.getName();
    static final String REQUEST_CONTEXT = AuthenticationRequestContext.class.getName();

    private record Entry(SecurityIdentity identity, Instant validUntil) {}

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final SecuritySettings.VerifiedTokensSettings settings;
    private final Clock clock;

    @Inject
    VerifiedTokens(SecuritySettings settings) {
        this(settings.verifiedTokens(), Clock.systemUTC());
    }

    VerifiedTokens(SecuritySettings.VerifiedTokensSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** The identity this exact token was verified as, if still valid. */
    Optional<SecurityIdentity> find(String token) {
        Entry entry = entries.get(token);
        if (entry == null) {
            return Optional.empty();
        }
        if (!clock.instant().isBefore(entry.validUntil())) {
            entries.remove(token, entry);
            return Optional.empty();
        }
        return Optional.of(entry.identity());
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        remember(identity);
        return Uni.createFrom().item(identity);
    }

    /** After every other augmentor: what is remembered is the identity the API gets. */
    @Override
    public int priority() {
        return Integer.MIN_VALUE;
    }

    void remember(SecurityIdentity identity) {
        TokenCredential token = identity.isAnonymous() ? null : identity.getCredential(TokenCredential.class);
        Object exp = identity.getAttribute(EXPIRE_TIME);
        if (token == null || !(exp instanceof Long seconds) || settings.ttl().isZero()
                || entries.containsKey(token.getToken())) {
            return;
        }
        Instant now = clock.instant();
        Instant expiry = Instant.ofEpochSecond(seconds);
        Instant until = now.plus(settings.ttl());
        if (!now.isBefore(expiry)) {
            return;
        }
        if (entries.size() >= settings.maxSize()) {
            makeRoom(now);
        }
        entries.put(token.getToken(), new Entry(QuarkusSecurityIdentity.builder(identity)
                .addAttribute(ROUTING_CONTEXT, null).addAttribute(REQUEST_CONTEXT, null).build(),
                expiry.isBefore(until) ? expiry : until));
    }

    /** Drops the expired entries, or one arbitrary entry when none is (a miss only costs a verification). */
    private void makeRoom(Instant now) {
        entries.values().removeIf(e -> !now.isBefore(e.validUntil()));
        Iterator<String> keys = entries.keySet().iterator();
        if (entries.size() >= settings.maxSize() && keys.hasNext()) {
            entries.remove(keys.next());
        }
    }
}
