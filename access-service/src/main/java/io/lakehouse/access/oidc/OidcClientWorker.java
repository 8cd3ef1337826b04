package io.lakehouse.access.oidc;

import io.lakehouse.access.domain.InstanceKey;
import io.lakehouse.access.events.AccessEvents;
import io.lakehouse.common.config.ClusterSettings;
import io.lakehouse.common.kube.WorkQueue;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Makes Keycloak and Kubernetes follow {@code oidc_clients}: a wanted row gets its client (created, or
 * taken up when it carries the instance's mark) and its {@code <name>-oidc} Secret holding the secret
 * Keycloak has now, then Ready with {@code access.oidc-client-ready}; an unwanted row loses both (a client
 * without the mark is never deleted), then the row goes with {@code access.oidc-client-removed}. Failures
 * (Keycloak down or refusing, a foreign client, the Secret not written) are written to the row as the
 * reason and retried with the work queue's backoff until Keycloak and the Secret agree. Every row is
 * queued again at start-up.
 */
@ApplicationScoped
public class OidcClientWorker {

    private static final Logger LOG = Logger.getLogger(OidcClientWorker.class);

    private final OidcClientStore store;
    private final KeycloakClients keycloak;
    private final OidcSecrets secrets;
    private final AccessEvents events;
    private final ClusterSettings cluster;
    private final KeycloakSettings settings;
    private final Tracer tracer;
    private volatile WorkQueue queue;

    OidcClientWorker(OidcClientStore store, KeycloakClients keycloak, OidcSecrets secrets,
            AccessEvents events, ClusterSettings cluster, KeycloakSettings settings, Tracer tracer) {
        this.store = store;
        this.keycloak = keycloak;
        this.secrets = secrets;
        this.events = events;
        this.cluster = cluster;
        this.settings = settings;
        this.tracer = tracer;
    }

    void start(@Observes StartupEvent ignored) {
        queue = new WorkQueue("oidc-clients", settings.workers(), this::reconcile, tracer);
        store.allKeys().await().indefinitely().forEach(this::queue);
    }

    void stop(@Observes ShutdownEvent ignored) {
        if (queue != null) {
            queue.close();
        }
    }

    /** Queues the client's pass, in the trace of the current request or event (common WorkQueue). */
    public void queue(InstanceKey key) {
        if (queue != null) {
            queue.add(key.subject(), Span.current().getSpanContext());
        }
    }

    private Duration reconcile(String subject) {
        String[] parts = subject.split("/", 3);
        InstanceKey key = new InstanceKey(parts[0], parts[1], parts[2]);
        Optional<OidcClientRecord> row = store.find(key).await().indefinitely();
        if (row.isEmpty()) {
            return null;
        }
        boolean wanted = row.get().wanted();
        if (!keycloak.configured()) {
            if (!wanted) {
                // Without an identity provider no client was ever made: only the row (and a Secret, if any) go.
                return absent(key, row.get(), false) ? null : Duration.ZERO;
            }
            // Settings do not change at run time: nothing to retry until a restart with lakehouse.keycloak.url.
            record(key, OidcClientState.Pending, "no identity provider configured (lakehouse.keycloak.url)");
            return null;
        }
        try {
            if (wanted) {
                present(key, row.get());
                return null;
            }
            // Requested again while the removal ran: look again, the client must come back.
            return absent(key, row.get(), true) ? null : Duration.ZERO;
        } catch (RuntimeException e) {
            // Refused (e.g. 401/403: the admin client's roles) or unreachable, creating or deleting alike:
            // the row says why, and the work queue retries with backoff (200 ms doubling up to 60 s) until
            // Keycloak answers. A refused deletion is retried like a refused creation.
            // A foreign client or Secret stays Failed (retried: an admin may remove it); a Secret not written
            // stays Pending (the client exists, its secret is not yet where the pods read it).
            boolean failed = e instanceof ForeignClientException || e instanceof ForeignSecretException
                    || KeycloakErrors.refused(e);
            String reason = (wanted ? "" : "deleting the client: ") + describe(e);
            record(key, failed ? OidcClientState.Failed : OidcClientState.Pending, reason);
            throw new IllegalStateException(reason, e);
        }
    }

    private static String describe(RuntimeException e) {
        return e instanceof ForeignClientException || e instanceof ForeignSecretException
                || e instanceof SecretWriteException ? e.getMessage() : KeycloakErrors.describe(e);
    }

    /** Also after a rotation: the Secret is rewritten until it holds the secret Keycloak has. */
    private void present(InstanceKey key, OidcClientRecord row) {
        OidcClientSpec spec = OidcClientSpec.of(key, cluster.domain());
        String secret = keycloak.ensure(spec, row);
        try {
            secrets.write(key, spec.clientId(), secret, cluster.oidcIssuer());
        } catch (ForeignSecretException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SecretWriteException(key, e);
        }
        store.ready(key, events.oidcClientReady(key, spec.clientId()), row.state() != OidcClientState.Ready)
                .await().indefinitely();
        LOG.debugf("OIDC client %s of %s ready", spec.clientId(), key.subject());
    }

    /**
     * Client (only when it carries the instance's mark), Secret, then the row with
     * {@code access.oidc-client-removed}; false when the row is wanted again.
     */
    private boolean absent(InstanceKey key, OidcClientRecord row, boolean inKeycloak) {
        if (inKeycloak && !keycloak.delete(row)) {
            LOG.warnf("Keycloak client %s of %s was not made for it: left in place", row.clientId(), key.subject());
        }
        secrets.delete(key);
        boolean removed = store.removeUnwanted(key, events.oidcClientRemoved(key, row.clientId()))
                .await().indefinitely();
        if (removed) {
            LOG.debugf("OIDC client %s of %s removed", row.clientId(), key.subject());
        }
        return removed;
    }

    private void record(InstanceKey key, OidcClientState state, String reason) {
        try {
            store.setProblem(key, state, reason).await().indefinitely();
        } catch (RuntimeException e) {
            LOG.warnf("could not record the state of the OIDC client of %s: %s", key.subject(), e.getMessage());
        }
    }
}
