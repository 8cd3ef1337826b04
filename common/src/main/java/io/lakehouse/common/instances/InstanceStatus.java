package io.lakehouse.common.instances;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.kube.Conditions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Conditions and phase of an instance from its gates and what its workloads show. {@code Pending} while
 * it waits for its OIDC client (nothing runs yet), {@code Deploying} until every workload is ready,
 * {@code Running} when they are but the catalog it uses is not usable, {@code Ready} when it is usable,
 * {@code Degraded} when a Ready instance loses a part.
 */
public final class InstanceStatus {

    public static final String CATALOG_READY = "CatalogReady";
    public static final String OIDC_CLIENT_READY = "OidcClientReady";
    public static final String READY = "Ready";
    static final String CNPG_HEALTHY = "Cluster in healthy state";

    private InstanceStatus() {}

    public record Result(Phase phase, List<Condition> conditions) {}

    /**
     * @param parts the kind's workloads
     * @param observed the live object of a part (from the informer cache), or null
     */
    public static Result compute(List<Part> parts, Function<Part, HasMetadata> observed, Gates gates,
            List<Condition> previous, Phase previousPhase, long generation, Instant now) {
        List<Condition> conditions = new ArrayList<>();
        Condition oidc = null;
        if (gates.oidcWanted()) {
            oidc = gates.oidcReady()
                    ? cond(OIDC_CLIENT_READY, true, "OidcClientReady", "the OIDC client and its Secret exist", generation)
                    : cond(OIDC_CLIENT_READY, false, "WaitingForOidcClient", "waiting for access-service to create the"
                            + " OIDC client and its Secret; the workloads start once it exists", generation);
            conditions.add(oidc);
        }
        Condition catalog = null;
        if (gates.catalogName() != null) {
            catalog = catalogReady(gates, generation);
            conditions.add(catalog);
        }
        boolean partsReady = true;
        for (Part part : parts) {
            Condition c = partReady(part, observed.apply(part), gates.mayDeploy(), generation);
            partsReady &= c.isTrue();
            conditions.add(c);
        }
        boolean usable = partsReady && (oidc == null || oidc.isTrue()) && (catalog == null || catalog.isTrue());
        Phase phase = usable ? Phase.Ready
                : previousPhase == Phase.Ready || previousPhase == Phase.Degraded ? Phase.Degraded
                : !gates.mayDeploy() ? Phase.Pending
                : partsReady ? Phase.Running
                : Phase.Deploying;
        conditions.add(usable ? cond(READY, true, "Usable", "the instance accepts requests", generation)
                : cond(READY, false, "NotReady", summary(conditions), generation));
        return new Result(phase, Conditions.merge(previous, conditions, now));
    }

    private static Condition catalogReady(Gates gates, long generation) {
        String name = gates.catalogName();
        if (gates.catalog() == null) {
            return cond(CATALOG_READY, false, "CatalogMissing", "the iceberg-catalog '" + name + "' does not exist",
                    generation);
        }
        if (gates.catalog().deleting()) {
            return cond(CATALOG_READY, false, "CatalogDeleting", "the iceberg-catalog '" + name + "' is being deleted",
                    generation);
        }
        return gates.catalog().ready()
                ? cond(CATALOG_READY, true, "CatalogReady", "the iceberg-catalog '" + name + "' is usable", generation)
                : cond(CATALOG_READY, false, "CatalogNotReady", "the iceberg-catalog '" + name + "' is "
                        + gates.catalog().phase() + ": tables are not usable until it is Ready", generation);
    }

    private static Condition partReady(Part part, HasMetadata live, boolean deployed, long generation) {
        if (!deployed) {
            return cond(part.condition(), false, "WaitingForOidcClient", part.what() + " starts once the OIDC client"
                    + " exists", generation);
        }
        if (live == null) {
            return cond(part.condition(), false, "Missing", part.what() + ": being created", generation);
        }
        return ready(live)
                ? cond(part.condition(), true, "Available", part.what() + ": every replica is ready", generation)
                : cond(part.condition(), false, "Starting", part.startingMessage(), generation);
    }

    /** Ready = every desired replica ready (at least one); a CloudNativePG Cluster = healthy. */
    static boolean ready(HasMetadata live) {
        if (live instanceof Deployment d) {
            int desired = d.getSpec() == null || d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
            Integer available = d.getStatus() == null ? null : d.getStatus().getAvailableReplicas();
            return available != null && available >= Math.max(desired, 1);
        }
        if (live instanceof StatefulSet s) {
            int desired = s.getSpec() == null || s.getSpec().getReplicas() == null ? 1 : s.getSpec().getReplicas();
            Integer ready = s.getStatus() == null ? null : s.getStatus().getReadyReplicas();
            return ready != null && ready >= Math.max(desired, 1);
        }
        if (live instanceof GenericKubernetesResource r && r.getAdditionalProperties().get("status") instanceof Map<?, ?> s) {
            return CNPG_HEALTHY.equals(s.get("phase")) && s.get("readyInstances") instanceof Number n && n.intValue() >= 1;
        }
        return false;
    }

    private static String summary(List<Condition> conditions) {
        for (Condition c : conditions) {
            if (!c.isTrue()) {
                return c.type() + ": " + c.message();
            }
        }
        return "";
    }

    private static Condition cond(String type, boolean ok, String reason, String message, long generation) {
        return new Condition(type, ok ? Condition.TRUE : Condition.FALSE, reason, message, null, generation);
    }
}
