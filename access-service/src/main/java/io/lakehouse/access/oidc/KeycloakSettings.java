package io.lakehouse.access.oidc;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/**
 * {@code lakehouse.keycloak.*}: where access-service creates the instances' OIDC clients. Without
 * {@code url} no client is created and every instance's OIDC client stays Pending with that reason.
 */
@ConfigMapping(prefix = "lakehouse.keycloak")
public interface KeycloakSettings {

    /** {@code lakehouse.keycloak.url}: the server, e.g. {@code http://127.0.0.1:58180} (no realm path). */
    Optional<String> url();

    /** {@code lakehouse.keycloak.realm}: the realm of the platform's users, where the clients go. */
    @WithDefault("lakehouse")
    String realm();

    /** {@code lakehouse.keycloak.admin-realm}: realm of the credentials below; default {@link #realm()}. */
    Optional<String> adminRealm();

    /** {@code lakehouse.keycloak.client-id}: confidential client with a service account (realm-management roles). */
    @WithDefault("lakehouse-access")
    String clientId();

    /** {@code lakehouse.keycloak.client-secret}: its secret (client-credentials grant). */
    Optional<String> clientSecret();

    /** {@code lakehouse.keycloak.username}/{@code password}: password grant instead (e.g. master admin with admin-cli). */
    Optional<String> username();

    Optional<String> password();

    /** {@code lakehouse.keycloak.workers}: parallel Keycloak calls. */
    @WithDefault("2")
    int workers();
}
