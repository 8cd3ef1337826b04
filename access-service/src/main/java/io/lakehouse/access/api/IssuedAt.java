package io.lakehouse.access.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.security.identity.SecurityIdentity;
import java.io.IOException;
import java.time.Instant;
import java.util.Base64;

/**
 * When the caller's bearer token was issued ({@code iat}): the order of what tokens say about a user,
 * since an older token may still be valid (and arrive) after a newer one. Read from the token Quarkus
 * has already verified.
 */
final class IssuedAt {

    private static final ObjectMapper JSON = new ObjectMapper();

    private IssuedAt() {}

    /** The token's {@code iat}, or now when the token carries none. */
    static Instant of(SecurityIdentity caller) {
        AccessTokenCredential token = caller.getCredential(AccessTokenCredential.class);
        if (token != null && token.getToken() != null) {
            String[] parts = token.getToken().split("\\.");
            if (parts.length == 3) {
                try {
                    JsonNode iat = JSON.readTree(Base64.getUrlDecoder().decode(parts[1])).path("iat");
                    if (iat.canConvertToLong()) {
                        return Instant.ofEpochSecond(iat.asLong());
                    }
                } catch (IOException | IllegalArgumentException e) {
                    // not a JWT we can read: fall back to now
                }
            }
        }
        return Instant.now();
    }
}
