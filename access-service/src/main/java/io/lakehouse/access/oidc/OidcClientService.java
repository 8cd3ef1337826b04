package io.lakehouse.access.oidc;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.access.events.AccessEvents;
import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.outbox.Outbox;
import io.lakehouse.common.problem.ApiException;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/** Reading an instance's OIDC client state, and rotating its secret (blocking: Keycloak + Kubernetes). */
@ApplicationScoped
public class OidcClientService {

    private static final Logger LOG = Logger.getLogger(OidcClientService.class);

    private final Pool pool;
    private final OidcClientStore store;
    private final KeycloakClients keycloak;
    private final OidcSecrets secrets;
    private final AccessEvents events;
    private final ClusterSettings cluster;

    OidcClientService(Pool pool, OidcClientStore store, KeycloakClients keycloak, OidcSecrets secrets,
            AccessEvents events, ClusterSettings cluster) {
        this.pool = pool;
        this.store = store;
        this.keycloak = keycloak;
        this.secrets = secrets;
        this.events = events;
        this.cluster = cluster;
    }

    public OidcClientView get(InstanceKey key) {
        return OidcClientView.of(require(key), cluster.oidcIssuer());
    }

    /** New secret in Keycloak, then in the Secret; {@code access.oidc-client-ready} again so pods can roll. */
    public OidcClientView rotate(InstanceKey key) {
        OidcClientRecord row = require(key);
        if (!row.wanted() || row.state() != OidcClientState.Ready) {
            throw ApiException.conflict("the OIDC client of " + key.kind() + " '" + key.name() + "' is "
                    + (row.wanted() ? row.state().name() : "being deleted") + ", not Ready: nothing to rotate yet");
        }
        String secret;
        try {
            secret = keycloak.rotate(row.clientId()).orElseThrow(() -> ApiException.conflict(
                    "client " + row.clientId() + " is missing in Keycloak; it is being recreated"));
        } catch (ApiException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warnf("rotation of %s failed: %s", row.clientId(), KeycloakErrors.describe(e));
            throw ApiException.unavailable("the identity provider is not available: " + KeycloakErrors.describe(e));
        }
        secrets.write(key, row.clientId(), secret, cluster.oidcIssuer());
        pool.withTransaction(tx -> Outbox.append(tx, events.oidcClientReady(key, row.clientId())))
                .await().indefinitely();
        LOG.infof("rotated the secret of OIDC client %s", row.clientId());
        return get(key);
    }

    private OidcClientRecord require(InstanceKey key) {
        return store.find(key).await().indefinitely().orElseThrow(() -> ApiException.notFound(
                "no OIDC client for " + key.kind() + " '" + key.name() + "' in namespace '" + key.namespace() + "'"));
    }
}
