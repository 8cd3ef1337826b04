package io.lakehouse.access.it;

import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ServiceTestStack;
import io.lakehouse.local.LocalTokens;
import java.util.List;
import java.util.Map;

/** access-service against the real PostgreSQL (schema {@code access}) and Kafka, with its own token issuer. */
public class TestStack extends ServiceTestStack {

    public static final String ISSUER = Callers.ISSUER;
    public static final LocalTokens TOKENS = Callers.TOKENS;

    public TestStack() {
        super("access-service", "access", List.of("lakehouse-access", "lakehouse-instances", "audit-feed"));
    }

    @Override
    protected Map<String, String> serviceProperties() {
        // No lakehouse.keycloak.url here: OIDC clients stay Pending with that reason (OidcClientPendingTest).
        return Map.of("quarkus.oidc.public-key", TOKENS.publicKeyBase64(), "quarkus.oidc.token.issuer", ISSUER);
    }
}
