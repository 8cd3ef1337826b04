package io.lakehouse.sparkjobs.events;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.outbox.Outbox;
import io.lakehouse.sparkjobs.domain.JobState;
import io.lakehouse.sparkjobs.kube.ApplicationStatus;
import io.lakehouse.sparkjobs.kube.DriverLogs;
import io.lakehouse.sparkjobs.kube.SparkResources;
import io.lakehouse.sparkjobs.store.JobStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Follows every SparkApplication of the cluster (an informer of its own: jobs made by hand carry no
 * label of ours) into the history: state changes with {@code sparkjob.state-changed}, jobs found
 * without a row (kubectl, schedules) with {@code sparkjob.submitted}. When a job ends, the driver's
 * last lines are kept, so the operator's TTL does not take them. Replicas race harmlessly: the update
 * only applies to a row whose state differs, so one of them records each change. A state the history
 * already holds ({@link SeenStates}) costs no transaction, and the end of a job watched here is written
 * with its driver's lines in one.
 */
@ApplicationScoped
public class JobTracker {

    private static final Logger LOG = Logger.getLogger(JobTracker.class);
    static final int KEPT_LINES = 200;
    private static final long RESYNC_MILLIS = 60_000;
    static final Duration LAUNCH_GRACE = Duration.ofSeconds(30);

    private final KubernetesClient kube;
    private final Pool pool;
    private final JobStore jobs;
    private final JobEvents events;
    private final ServiceSettings service;
    private final SeenStates seen = new SeenStates();
    private SharedIndexInformer<GenericKubernetesResource> informer;

    JobTracker(KubernetesClient kube, Pool pool, JobStore jobs, JobEvents events, ServiceSettings service) {
        this.kube = kube;
        this.pool = pool;
        this.jobs = jobs;
        this.events = events;
        this.service = service;
    }

    void start(@Observes StartupEvent event) {
        try {
            informer = kube.genericKubernetesResources(SparkResources.APPLICATIONS).inAnyNamespace()
                    .inform(new Handler(), RESYNC_MILLIS);
        } catch (RuntimeException e) {
            // No operator CRD on this cluster: launches answer 503 with that reason; nothing to follow.
            LOG.warnf("not following SparkApplications: %s", e.getMessage());
        }
    }

    void stop(@Observes ShutdownEvent event) {
        if (informer != null) {
            informer.close();
        }
    }

    /**
     * An application of ours still without a row this long after its creation lost its launch (the replica
     * was killed between creating it and committing the row): it is recorded like one made by hand, so no
     * job runs unseen. A launch commits seconds after the creation; the resync (60 s) looks again.
     */
    static boolean unfinishedLaunch(ApplicationStatus s, OffsetDateTime now) {
        return s.createdAt().isBefore(now.minus(LAUNCH_GRACE));
    }

    void observe(GenericKubernetesResource app) {
        ApplicationStatus s = ApplicationStatus.of(app, service.name());
        String uid = uid(app);
        if (seen.recorded(uid, s.state())) {
            // A resync or a status update that changed no state: the history has it.
            return;
        }
        boolean launching = s.ours() && !unfinishedLaunch(s, OffsetDateTime.now());
        if (launching && JobState.NEW.equals(s.state())) {
            // Launched here, no word from the operator yet: the launch records it as NEW, nothing to change.
            // (Past the grace it is looked at: its launch may have died before the row.)
            seen.seen(uid, s.state(), false);
            return;
        }
        // Ended while watched: the driver's lines go with the final state, in its transaction.
        boolean logRead = seen.endsWhileWatched(uid, s.state());
        String log = logRead ? driverLog(s).orElse(null) : null;
        Recorded result = pool.withTransaction(tx -> jobs.observe(tx, s, log).chain(updated -> {
            if (updated.isPresent()) {
                return Outbox.append(tx, events.stateChanged(updated.get())).replaceWith(Recorded.CHANGED);
            }
            if (launching) {
                // Launched here: the launch records it (its row may not be committed yet); resync catches up.
                return Uni.createFrom().item(Recorded.UNKNOWN);
            }
            return jobs.insertFound(tx, s).chain(found -> {
                if (found.isEmpty()) {
                    // The row was there: it holds this state (or CANCELLED, which stays).
                    return Uni.createFrom().item(Recorded.ALREADY);
                }
                if (s.ours()) {
                    LOG.warnf("SparkApplication %s/%s has no row %s after its creation (its launch did not finish:"
                            + " the replica stopped?): recorded as found on the cluster", s.namespace(), s.name(),
                            LAUNCH_GRACE);
                }
                return Outbox.append(tx, events.submitted(found.get())).replaceWith(Recorded.CHANGED);
            });
        })).await().indefinitely();
        seen.seen(uid, s.state(), result != Recorded.UNKNOWN);
        if (result == Recorded.CHANGED && !logRead && JobState.finished(s.state())) {
            driverLog(s).ifPresent(lines -> jobs.saveLog(s.namespace(), s.name(), lines).await().indefinitely());
        }
    }

    /** What a pass did to the history. */
    private enum Recorded {
        /** The state (or the found job) was written. */
        CHANGED,
        /** The row already held it. */
        ALREADY,
        /** Not known: a launch of ours whose row may not be committed yet. */
        UNKNOWN
    }

    private Optional<String> driverLog(ApplicationStatus s) {
        String pod = s.driverPod() != null ? s.driverPod() : DriverLogs.driverPod(s.name());
        return DriverLogs.tail(kube, s.namespace(), pod, KEPT_LINES);
    }

    private static String uid(GenericKubernetesResource app) {
        String uid = app.getMetadata().getUid();
        return uid != null ? uid : app.getMetadata().getNamespace() + "/" + app.getMetadata().getName();
    }

    private final class Handler implements ResourceEventHandler<GenericKubernetesResource> {
        @Override
        public void onAdd(GenericKubernetesResource app) {
            safely(app);
        }

        @Override
        public void onUpdate(GenericKubernetesResource before, GenericKubernetesResource app) {
            safely(app);
        }

        @Override
        public void onDelete(GenericKubernetesResource app, boolean finalStateUnknown) {
            // The history outlives the resource (the operator's TTL, kubectl delete): nothing to write.
            seen.forget(uid(app));
        }

        private void safely(GenericKubernetesResource app) {
            try {
                observe(app);
            } catch (RuntimeException e) {
                LOG.warnf("SparkApplication %s/%s not recorded (the next resync tries again): %s",
                        app.getMetadata().getNamespace(), app.getMetadata().getName(), e.getMessage());
            }
        }
    }
}
