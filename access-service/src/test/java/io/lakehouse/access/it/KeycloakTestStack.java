package io.lakehouse.access.it;

import io.lakehouse.common.testing.ServiceTestStack;
import java.util.List;
import java.util.Map;

/**
 * access-service as it runs with Keycloak: tokens validated against the realm (discovery + JWKS,
 * {@code quarkus.oidc.auth-server-url} and nothing else, as a real deployment configures it), OIDC
 * clients of the instances created there with the
 * realm's lakehouse-access service account.
 */
public class KeycloakTestStack extends ServiceTestStack {

    public KeycloakTestStack() {
        super("access-service", "access", List.of("lakehouse-access", "lakehouse-instances", "audit-feed"));
    }

    @Override
    public Map<String, String> start() {
        KeycloakTestServer.awaitReady();
        return super.start();
    }

    @Override
    protected Map<String, String> serviceProperties() {
        // Only this run's instances: replaying the topic's history would create a Keycloak client for
        // every trino/jupyterhub/mlflow/nifi instance any earlier test ever requested.
        return Map.of("mp.messaging.incoming.lakehouse-instances.auto.offset.reset", "latest",
                // As in production: the realm only; issuer and keys from its discovery document.
                "quarkus.oidc.auth-server-url", KeycloakTestServer.ISSUER,
                "lakehouse.keycloak.url", KeycloakTestServer.URL,
                "lakehouse.keycloak.realm", KeycloakTestServer.REALM,
                "lakehouse.keycloak.client-id", KeycloakTestServer.ADMIN_CLIENT,
                "lakehouse.keycloak.client-secret", KeycloakTestServer.ADMIN_SECRET,
                "lakehouse.cluster.oidc-issuer", KeycloakTestServer.ISSUER);
    }
}
