package io.lakehouse.common.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.config.SecuritySettings;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import java.time.Clock;
import java.time.ZoneId;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class VerifiedTokensTest {

    private static final Instant NOW = Instant.parse("2026-12-03T15:00:00Z");

    private final AtomicReference<Instant> now = new AtomicReference<>(NOW);
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };

    @Test
    void aVerifiedTokenIsReusedUntilTheTtlWithoutItsRequestsAttributes() {
        VerifiedTokens tokens = new VerifiedTokens(settings(Duration.ofMinutes(1), 10), clock);
        tokens.remember(identity("t1", NOW.plusSeconds(300)));

        SecurityIdentity found = tokens.find("t1").orElseThrow();
        assertThat(found.getPrincipal().getName()).isEqualTo("alice");
        assertThat(found.getRoles()).containsExactly("/data-team");
        assertThat((Object) found.getAttribute(VerifiedTokens.ROUTING_CONTEXT)).isNull();
        assertThat(tokens.find("t1-other")).isEmpty();

        now.set(NOW.plusSeconds(59));
        assertThat(tokens.find("t1")).isPresent();
        now.set(NOW.plusSeconds(60));
        assertThat(tokens.find("t1")).isEmpty();
    }

    @Test
    void aTokenIsNeverReusedPastItsExpiry() {
        VerifiedTokens tokens = new VerifiedTokens(settings(Duration.ofMinutes(10), 10), clock);
        tokens.remember(identity("t1", NOW.plusSeconds(5)));
        now.set(NOW.plusSeconds(5));
        assertThat(tokens.find("t1")).isEmpty();

        tokens.remember(identity("expired", NOW));
        assertThat(tokens.find("expired")).isEmpty();
    }

    @Test
    void nothingIsRememberedWithoutATokenAnExpiryOrATtl() {
        VerifiedTokens tokens = new VerifiedTokens(settings(Duration.ofMinutes(1), 10), clock);
        tokens.remember(QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal("bob"))
                .addCredential(new TokenCredential("no-exp", "bearer")).build());
        assertThat(tokens.find("no-exp")).isEmpty();

        VerifiedTokens off = new VerifiedTokens(settings(Duration.ZERO, 10), clock);
        off.remember(identity("t1", NOW.plusSeconds(300)));
        assertThat(off.find("t1")).isEmpty();
    }

    @Test
    void itHoldsAtMostMaxSizeTokens() {
        VerifiedTokens tokens = new VerifiedTokens(settings(Duration.ofMinutes(1), 3), clock);
        for (int i = 0; i < 10; i++) {
            tokens.remember(identity("t" + i, NOW.plusSeconds(300)));
        }
        long held = IntStream.range(0, 10).filter(i -> tokens.find("t" + i).isPresent()).count();
        assertThat(held).isEqualTo(3);
        assertThat(tokens.find("t9")).isPresent();
    }

    private static SecurityIdentity identity(String token, Instant expiry) {
        return QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal("alice")).addRole("/data-team")
                .addCredential(new TokenCredential(token, "bearer"))
                .addAttribute(VerifiedTokens.EXPIRE_TIME, expiry.getEpochSecond())
                .addAttribute(VerifiedTokens.ROUTING_CONTEXT, "the request that verified it").build();
    }

    private static SecuritySettings.VerifiedTokensSettings settings(Duration ttl, int maxSize) {
        return new SecuritySettings.VerifiedTokensSettings() {
            @Override
            public Duration ttl() {
                return ttl;
            }

            @Override
            public int maxSize() {
                return maxSize;
            }
        };
    }
}
