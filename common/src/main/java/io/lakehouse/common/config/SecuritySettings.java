package io.lakehouse.common.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Who is allowed everything, and how long a verified token is trusted without verifying it again. */
@ConfigMapping(prefix = "lakehouse.security")
public interface SecuritySettings {

    /**
     * {@code lakehouse.security.platform-admin-group}, default {@code /platform-admins}: every role everywhere.
     * A full group path (tokens carry full paths), so a group of the same name under another parent, e.g.
     * {@code /other/platform-admins}, grants nothing.
     */
    @WithDefault("/platform-admins")
    String platformAdminGroup();

    /** The bearer tokens already verified (see {@code VerifiedTokens}). */
    VerifiedTokensSettings verifiedTokens();

    interface VerifiedTokensSettings {

        /**
         * {@code lakehouse.security.verified-tokens.ttl}, default 1 minute: how long a verified token's identity
         * is reused (never past the token's own expiry). Bounds how long a token stays accepted after its
         * signing key left the issuer's key set. {@code 0s} verifies every request.
         */
        @WithDefault("1m")
        Duration ttl();

        /**
         * {@code lakehouse.security.verified-tokens.max-size}, default 256: tokens remembered at most (one per
         * active caller and token lifetime; ~5 KB each).
         */
        @WithDefault("256")
        int maxSize();
    }
}
