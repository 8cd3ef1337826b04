package io.lakehouse.access.oidc;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Response;
import java.util.HashMap;
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

    /** Client attribute holding the uid of the instance the client was made for. */
    public static final String MARK = "lakehouse.instance-uid";
    private static final String POST_LOGOUT = "post.logout.redirect.uris";

    private final KeycloakSettings settings;
    private volatile Keycloak keycloak;

    KeycloakClients(KeycloakSettings settings) {
        this.settings = settings;
    }

    public boolean configured() {
        return settings.url().isPresent();
    }

    /**
     * Creates the instance's client marked with its uid, or brings an existing one it owns up to date
     * (redirects, and the mark when it came from the previous instance of that name); returns its secret.
     * A client of that id without the instance's mark is someone else's: {@link ForeignClientException}.
     */
    public String ensure(OidcClientSpec spec, OidcClientRecord row) {
        return call(clients -> ensure(clients, spec, row));
    }

    private static String ensure(ClientsResource clients, OidcClientSpec spec, OidcClientRecord row) {
        Optional<ClientRepresentation> existing = find(clients, spec.clientId());
        if (existing.isEmpty()) {
            try (Response created = clients.create(representation(spec, row.instanceUid()))) {
                if (created.getStatus() != 201 && created.getStatus() != 409) {
                    throw new IllegalStateException("Keycloak answered " + created.getStatus()
                            + " to the creation of client " + spec.clientId());
                }
            }
            existing = find(clients, spec.clientId());
        }
        ClientRepresentation client = existing.orElseThrow(
                () -> new IllegalStateException("client " + spec.clientId() + " not found after its creation"));
        String mark = markOf(client);
        if (!row.owns(mark)) {
            throw new ForeignClientException(spec.clientId());
        }
        ClientResource resource = clients.get(client.getId());
        Map<String, String> attributes = new HashMap<>(client.getAttributes() == null ? Map.of() : client.getAttributes());
        if (!spec.redirectUris().equals(client.getRedirectUris()) || !List.of(spec.origin()).equals(client.getWebOrigins())
                || !spec.postLogoutUris().equals(attributes.get(POST_LOGOUT))
                || Boolean.TRUE.equals(client.isPublicClient()) || !row.instanceUid().equals(mark)) {
            client.setRedirectUris(spec.redirectUris());
            client.setWebOrigins(List.of(spec.origin()));
            client.setPublicClient(false);
            attributes.put(MARK, row.instanceUid());
            attributes.put(POST_LOGOUT, spec.postLogoutUris());
            client.setAttributes(attributes);
            resource.update(client);
        }
        return resource.getSecret().getValue();
    }

    /** A new secret for the instance's client; empty when it does not exist; foreign ones are not touched. */
    public Optional<String> rotate(OidcClientRecord row) {
        return call(clients -> find(clients, row.clientId()).map(c -> {
            if (!row.owns(markOf(c))) {
                throw new ForeignClientException(row.clientId());
            }
            return clients.get(c.getId()).generateNewSecret().getValue();
        }));
    }

    /**
     * Deletes the instance's client; a missing one is fine. A client of that id without the instance's mark
     * is someone else's and stays: false then.
     */
    public boolean delete(OidcClientRecord row) {
        return call(clients -> {
            Optional<ClientRepresentation> existing = find(clients, row.clientId());
            if (existing.isEmpty()) {
                return true;
            }
            if (!row.owns(markOf(existing.get()))) {
                return false;
            }
            try {
                clients.get(existing.get().getId()).remove();
            } catch (NotFoundException alreadyGone) {
                // deleted meanwhile
            }
            return true;
        });
    }

    private static String markOf(ClientRepresentation client) {
        return client.getAttributes() == null ? null : client.getAttributes().get(MARK);
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

    private static ClientRepresentation representation(OidcClientSpec spec, String uid) {
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
        c.setAttributes(Map.of(POST_LOGOUT, spec.postLogoutUris(), MARK, uid));
        c.setProtocolMappers(List.of(groupsMapper()));
        return c;
    }

    /** Group membership as claim {@code groups} (full paths), like the platform's own tokens. */
    private static ProtocolMapperRepresentation groupsMapper() {
        ProtocolMapperRepresentation m = new ProtocolMapperRepresentation();
        m.setName("groups");
        m.setProtocol("openid-connect");
        m.setProtocolMapper("oidc-group-membership-mapper");
        m.setConfig(Map.of("claim.name", "groups", "full.path", "true", "access.token.claim", "true",
                "id.token.claim", "true", "userinfo.token.claim", "true"));
        return m;
    }
}
