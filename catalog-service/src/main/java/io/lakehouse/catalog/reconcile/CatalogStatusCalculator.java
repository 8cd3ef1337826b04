package io.lakehouse.catalog.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.lakehouse.common.instances.Phase;
import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.kube.Conditions;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Conditions and phase of a catalog from what its workloads show. Ready only when the catalog is
 * usable: database and server up, realm initialized, catalog created with its grants. The two task
 * conditions stay True once reached (the realm and catalog live in the database; a Job cleaned up by
 * its TTL does not undo them).
 */
public final class CatalogStatusCalculator {

    public static final String DATABASE_READY = "DatabaseReady";
    public static final String SERVER_READY = "ServerReady";
    public static final String REALM_INITIALIZED = "RealmInitialized";
    public static final String CATALOG_CREATED = "CatalogCreated";
    public static final String READY = "Ready";
    /** Reason of {@link #REALM_INITIALIZED} when the database cluster is not the one the realm was made in. */
    public static final String DATABASE_REPLACED = "DatabaseReplaced";
    private static final String REALM_DONE_ON = "done on database ";
    static final String CNPG_HEALTHY = "Cluster in healthy state";

    private CatalogStatusCalculator() {}

    public record Result(Phase phase, List<Condition> conditions) {}

    public static Result compute(Observed o, List<Condition> previous, Phase previousPhase, long generation, Instant now) {
        Condition db = databaseReady(o.database(), generation);
        Condition server = serverReady(o.server(), generation);
        Condition realm = sticky(previous, REALM_INITIALIZED, realmTask(o, db, generation));
        boolean replaced = databaseReplaced(realm, o.database());
        if (replaced) {
            realm = cond(REALM_INITIALIZED, false, DATABASE_REPLACED, "the database cluster was recreated and is"
                    + " empty: the realm is initialized again", generation);
        }
        Condition catalogTask = task(CATALOG_CREATED, o.catalogInit(), generation, "CatalogCreated",
                "CatalogCreationFailed", "CreatingCatalog", !realm.isTrue() ? "WaitingForRealm"
                        : server.isTrue() ? "CreatingCatalog" : "WaitingForServer");
        Condition catalog = replaced ? cond(CATALOG_CREATED, false, "WaitingForRealm", message("WaitingForRealm"),
                generation) : sticky(previous, CATALOG_CREATED, catalogTask);
        boolean usable = db.isTrue() && server.isTrue() && realm.isTrue() && catalog.isTrue();
        boolean failed = "RealmInitFailed".equals(realm.reason()) || "CatalogCreationFailed".equals(catalog.reason());
        Phase phase = failed ? Phase.Failed
                : usable ? Phase.Ready
                : previousPhase == Phase.Ready || previousPhase == Phase.Degraded ? Phase.Degraded
                : db.isTrue() && server.isTrue() ? Phase.Running
                : Phase.Deploying;
        Condition ready = usable ? cond(READY, true, "CatalogUsable", "the catalog accepts requests", generation)
                : cond(READY, false, failed ? "TaskFailed" : "NotReady", summary(db, server, realm, catalog), generation);
        return new Result(phase, Conditions.merge(previous, List.of(db, server, realm, catalog, ready), now));
    }

    /** Realm initialization; once done, its message names the database cluster it initialized. */
    private static Condition realmTask(Observed o, Condition db, long generation) {
        Condition task = task(REALM_INITIALIZED, o.realmInit(), generation, "RealmBootstrapped", "RealmInitFailed",
                "InitializingRealm", db.isTrue() ? "InitializingRealm" : "WaitingForDatabase");
        String databaseUid = annotation(o.realmInit(), CatalogTasks.DATABASE_UID);
        return task.isTrue() && databaseUid != null
                ? cond(REALM_INITIALIZED, true, task.reason(), REALM_DONE_ON + databaseUid, generation)
                : task;
    }

    /**
     * True when the realm was initialized in another database cluster than the live one (deleted and
     * made again, restored elsewhere): the conditions must not stay true on an empty database.
     */
    private static boolean databaseReplaced(Condition realm, GenericKubernetesResource database) {
        if (!realm.isTrue() || database == null || database.getMetadata().getUid() == null
                || !realm.message().startsWith(REALM_DONE_ON)) {
            return false;
        }
        return !realm.message().substring(REALM_DONE_ON.length()).equals(database.getMetadata().getUid());
    }

    private static String annotation(Job job, String key) {
        return job == null || job.getMetadata().getAnnotations() == null ? null
                : job.getMetadata().getAnnotations().get(key);
    }

    private static Condition databaseReady(GenericKubernetesResource cluster, long generation) {
        if (cluster == null) {
            return cond(DATABASE_READY, false, "DatabaseMissing", "the database cluster is being created", generation);
        }
        Object status = cluster.getAdditionalProperties().get("status");
        Map<?, ?> s = status instanceof Map<?, ?> m ? m : Map.of();
        Object phase = s.get("phase");
        boolean healthy = CNPG_HEALTHY.equals(phase) && number(s.get("readyInstances")) >= 1;
        return healthy ? cond(DATABASE_READY, true, "ClusterHealthy", "PostgreSQL is ready", generation)
                : cond(DATABASE_READY, false, "DatabaseStarting",
                        phase == null ? "waiting for CloudNativePG" : "CloudNativePG: " + phase, generation);
    }

    private static Condition serverReady(Deployment server, long generation) {
        Integer available = server == null || server.getStatus() == null ? null : server.getStatus().getAvailableReplicas();
        return available != null && available > 0
                ? cond(SERVER_READY, true, "ServerAvailable", "Polaris is serving", generation)
                : cond(SERVER_READY, false, "ServerStarting", "waiting for the Polaris pod to be ready", generation);
    }

    private static Condition task(String type, Job job, long generation, String done, String failed, String running,
            String absent) {
        return switch (JobState.of(job)) {
            case SUCCEEDED -> cond(type, true, done, "done", generation);
            case FAILED -> cond(type, false, failed, JobState.failureMessage(job), generation);
            case RUNNING -> cond(type, false, running, "the task is running", generation);
            case ABSENT -> cond(type, false, absent, message(absent), generation);
        };
    }

    private static Condition sticky(List<Condition> previous, String type, Condition observed) {
        if (!Conditions.isTrue(previous, type) || observed.isTrue()) {
            return observed;
        }
        Condition kept = Conditions.find(previous, type).orElseThrow();
        return new Condition(kept.type(), kept.status(), kept.reason(), kept.message(), null,
                observed.observedGeneration());
    }

    private static String summary(Condition... parts) {
        for (Condition c : parts) {
            if (!c.isTrue()) {
                return c.type() + ": " + c.message();
            }
        }
        return "";
    }

    private static String message(String reason) {
        return switch (reason) {
            case "WaitingForDatabase" -> "realm initialization starts once the database is ready";
            case "WaitingForRealm" -> "catalog creation starts once the realm is initialized";
            case "WaitingForServer" -> "catalog creation starts once Polaris is serving";
            default -> "starting";
        };
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : 0;
    }

    private static Condition cond(String type, boolean ok, String reason, String message, long generation) {
        return new Condition(type, ok ? Condition.TRUE : Condition.FALSE, reason, message, null, generation);
    }
}
