package io.lakehouse.access.oidc;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jboss.logging.Logger;
import org.keycloak.OAuth2Constants;
import org.keycloak.admin.client.Keycloak;
import org.keycloak.admin.client.KeycloakBuilder;
import org.keycloak.admin.client.resource.ClientResource;
import org.keycloak.admin.client.resource.ClientsResource;
import org.keycloak.representations.idm.ClientRepresentation;
import org.keycloak.representations.idm.ProtocolMapperRepresentation;

/**
 * The instances' confidential clients in Keycloak, through the Keycloak admin client library (the
 * quarkus-keycloak-admin-rest-client flavour). Blocking: called from the worker threads and from
 * blocking endpoints. Secrets returned here go only to the Kubernetes Secret.
 */
@ApplicationScoped
public class KeycloakClients {

    private static final Logger LOG = Logger.getLogger(KeycloakClients.class);

    private final KeycloakSettings settings;
    private volatile Keycloak keycloak;

    KeycloakClients(KeycloakSettings settings) {
        this.settings = settings;
    }

    public boolean configured() {
        return settings.url().isPresent();
    }

    /** Creates the client, or adopts an existing one (redirects brought up to date); returns its secret. */
    public String ensure(OidcClientSpec spec) {
        return call(clients -> ensure(clients, spec));
    }

    private static String ensure(ClientsResource clients, OidcClientSpec spec) {
        Optional<ClientRepresentation> existing = find(clients, spec.clientId());
        if (existing.isEmpty()) {
            try (Response created = clients.create(representation(spec))) {
                if (created.getStatus() != 201 && created.getStatus() != 409) {
                    throw new IllegalStateException("Keycloak answered " + created.getStatus()
                            + " to the creation of client " + spec.clientId());
                }
            }
            existing = find(clients, spec.clientId());
        }
        ClientRepresentation client = existing.orElseThrow(
                () -> new IllegalStateException("client " + spec.clientId() + " not found after its creation"));
        ClientResource resource = clients.get(client.getId());
        if (!spec.redirectUris().equals(client.getRedirectUris()) || !List.of(spec.origin()).equals(client.getWebOrigins())
                || Boolean.TRUE.equals(client.isPublicClient())) {
            client.setRedirectUris(spec.redirectUris());
            client.setWebOrigins(List.of(spec.origin()));
            client.setPublicClient(false);
            resource.update(client);
        }
        return resource.getSecret().getValue();
    }

    /** A new secret for an existing client; empty when the client does not exist. */
    public Optional<String> rotate(String clientId) {
        return call(clients -> find(clients, clientId).map(c -> clients.get(c.getId()).generateNewSecret().getValue()));
    }

    /** Deletes the client; a missing one is fine. */
    public void delete(String clientId) {
        call(clients -> {
            Optional<ClientRepresentation> existing = find(clients, clientId);
            if (existing.isPresent()) {
                try {
                    clients.get(existing.get().getId()).remove();
                } catch (NotFoundException alreadyGone) {
                    // deleted meanwhile
                }
            }
            return null;
        });
    }

    public boolean exists(String clientId) {
        return call(clients -> find(clients, clientId).isPresent());
    }

    private static Optional<ClientRepresentation> find(ClientsResource clients, String clientId) {
        return clients.findByClientId(clientId).stream().filter(c -> clientId.equals(c.getClientId())).findFirst();
    }

    /**
     * Runs one admin operation. When Keycloak refuses the admin client (401/403), the admin client and
     * its cached access token are dropped: Keycloak reads the admin roles from the token, so a token
     * taken while the service account lacked a role (or was disabled) would keep being refused until it
     * expires (5 min) even after the roles are fixed. The next attempt signs in again.
     */
    private <T> T call(Function<ClientsResource, T> operation) {
        Keycloak k = admin();
        try {
            return operation.apply(k.realm(settings.realm()).clients());
        } catch (RuntimeException e) {
            if (KeycloakErrors.credentialsRefused(e)) {
                discard(k);
            }
            throw e;
        }
    }

    /** Forgets this admin client (and its token) unless another thread already replaced it. */
    private void discard(Keycloak k) {
        synchronized (this) {
            if (keycloak != k) {
                return;
            }
            keycloak = null;
        }
        LOG.debug("Keycloak refused the admin client: signing in again on the next call");
        try {
            k.close();
        } catch (RuntimeException e) {
            // a call of another worker may still use it: it fails and is retried
        }
    }

    private Keycloak admin() {
        Keycloak k = keycloak;
        if (k == null) {
            synchronized (this) {
                if (keycloak == null) {
                    keycloak = build();
                }
                k = keycloak;
            }
        }
        return k;
    }

    private Keycloak build() {
        String url = settings.url().orElseThrow(() -> new IllegalStateException("lakehouse.keycloak.url is not set"));
        KeycloakBuilder builder = KeycloakBuilder.builder().serverUrl(url)
                .realm(settings.adminRealm().orElse(settings.realm())).clientId(settings.clientId());
        if (settings.username().isPresent()) {
            builder.grantType(OAuth2Constants.PASSWORD).username(settings.username().get())
                    .password(settings.password().orElse(""));
            settings.clientSecret().ifPresent(builder::clientSecret);
        } else {
            builder.grantType(OAuth2Constants.CLIENT_CREDENTIALS).clientSecret(settings.clientSecret().orElse(""));
        }
        return builder.build();
    }

    @PreDestroy
    void close() {
        if (keycloak != null) {
            keycloak.close();
        }
    }

    private static ClientRepresentation representation(OidcClientSpec spec) {
        ClientRepresentation c = new ClientRepresentation();
        c.setClientId(spec.clientId());
        c.setName(spec.clientId());
        c.setDescription("Created by access-service for the instance behind " + spec.origin());
        c.setProtocol("openid-connect");
        c.setEnabled(true);
        c.setPublicClient(false);
        c.setClientAuthenticatorType("client-secret");
        c.setStandardFlowEnabled(true);
        c.setDirectAccessGrantsEnabled(false);
        c.setServiceAccountsEnabled(false);
        c.setRedirectUris(spec.redirectUris());
        c.setWebOrigins(List.of(spec.origin()));
        c.setAttributes(Map.of("post.logout.redirect.uris", spec.origin() + "/*"));
        c.setProtocolMappers(List.of(groupsMapper()));
        return c;
    }

    /** Group membership as claim {@code groups} (names, no path), like the platform's own tokens. */
    private static ProtocolMapperRepresentation groupsMapper() {
        ProtocolMapperRepresentation m = new ProtocolMapperRepresentation();
        m.setName("groups");
        m.setProtocol("openid-connect");
        m.setProtocolMapper("oidc-group-membership-mapper");
        m.setConfig(Map.of("claim.name", "groups", "full.path", "false", "access.token.claim", "true",
                "id.token.claim", "true", "userinfo.token.claim", "true"));
        return m;
    }
}
