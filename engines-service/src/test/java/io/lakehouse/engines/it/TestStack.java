package io.lakehouse.engines.it;

import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ServiceTestStack;
import io.lakehouse.local.LocalTokens;
import java.util.List;
import java.util.Map;

/** engines-service against the real PostgreSQL (schema {@code engines}) and Kafka, with its own token issuer. */
public class TestStack extends ServiceTestStack {

    public static final String ISSUER = Callers.ISSUER;
    public static final String SEALING_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
    public static final LocalTokens TOKENS = Callers.TOKENS;

    public TestStack() {
        super("engines-service", "engines", List.of("lakehouse-access", "lakehouse-instances"));
    }

    @Override
    protected Map<String, String> serviceProperties() {
        return Map.of("quarkus.oidc.public-key", TOKENS.publicKeyBase64(), "quarkus.oidc.token.issuer", ISSUER,
                "lakehouse.secrets.key", SEALING_KEY);
    }
}
