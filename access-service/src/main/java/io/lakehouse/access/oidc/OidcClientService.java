package io.lakehouse.access.oidc;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.access.events.AccessEvents;
import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.problem.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/** Reading an instance's OIDC client state, and rotating its secret (blocking: Keycloak + Kubernetes). */
@ApplicationScoped
public class OidcClientService {

    private static final Logger LOG = Logger.getLogger(OidcClientService.class);

    private final OidcClientStore store;
    private final KeycloakClients keycloak;
    private final OidcSecrets secrets;
    private final AccessEvents events;
    private final ClusterSettings cluster;
    private final OidcClientWorker worker;

    OidcClientService(OidcClientStore store, KeycloakClients keycloak, OidcSecrets secrets,
            AccessEvents events, ClusterSettings cluster, OidcClientWorker worker) {
        this.worker = worker;
        this.store = store;
        this.keycloak = keycloak;
        this.secrets = secrets;
        this.events = events;
        this.cluster = cluster;
    }

    public OidcClientView get(InstanceKey key) {
        return OidcClientView.of(require(key), cluster.oidcIssuer());
    }

    /**
     * New secret in Keycloak, then in the Secret; {@code access.oidc-client-ready} again so pods can roll.
     * The row is Pending from before the rotation until the Secret holds the new secret: when the Secret
     * cannot be written now (or the service stops in between), the worker rewrites it from Keycloak, with
     * retries, and then announces Ready. The answer is Ready, or Pending with the reason.
     */
    public OidcClientView rotate(InstanceKey key) {
        OidcClientRecord row = require(key);
        if (!row.wanted() || row.state() != OidcClientState.Ready) {
            throw ApiException.conflict("the OIDC client of " + key.kind() + " '" + key.name() + "' is "
                    + (row.wanted() ? row.state().name() : "being deleted") + ", not Ready: nothing to rotate yet");
        }
        store.setState(key, OidcClientState.Pending, "rotating the client secret").await().indefinitely();
        String secret;
        try {
            secret = keycloak.rotate(row).orElseThrow(() -> ApiException.conflict(
                    "client " + row.clientId() + " is missing in Keycloak; it is being recreated"));
        } catch (ApiException e) {
            worker.queue(key);
            throw e;
        } catch (ForeignClientException e) {
            worker.queue(key);
            throw ApiException.conflict(e.getMessage());
        } catch (RuntimeException e) {
            worker.queue(key);
            LOG.warnf("rotation of %s failed: %s", row.clientId(), KeycloakErrors.describe(e));
            throw ApiException.unavailable("the identity provider is not available: " + KeycloakErrors.describe(e));
        }
        try {
            secrets.write(key, row.clientId(), secret, cluster.oidcIssuer());
        } catch (RuntimeException e) {
            SecretWriteException failed = new SecretWriteException(key, e);
            LOG.warnf("rotated the secret of OIDC client %s; %s", row.clientId(), failed.getMessage());
            store.setState(key, OidcClientState.Pending, failed.getMessage()).await().indefinitely();
            worker.queue(key);
            return get(key);
        }
        store.ready(key, events.oidcClientReady(key, row.clientId()), true).await().indefinitely();
        LOG.infof("rotated the secret of OIDC client %s", row.clientId());
        return get(key);
    }

    private OidcClientRecord require(InstanceKey key) {
        return store.find(key).await().indefinitely().orElseThrow(() -> ApiException.notFound(
                "no OIDC client for " + key.kind() + " '" + key.name() + "' in namespace '" + key.namespace() + "'"));
    }
}
