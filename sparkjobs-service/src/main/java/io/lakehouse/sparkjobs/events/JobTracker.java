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
import io.lakehouse.sparkjobs.store.JobRecord;
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
 * only applies to a row whose state differs, so one of them records each change.
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
        boolean launching = s.ours() && !unfinishedLaunch(s, OffsetDateTime.now());
        if (launching && JobState.NEW.equals(s.state())) {
            // Launched here, no word from the operator yet: the launch records it as NEW, nothing to change.
            // (Past the grace it is looked at: its launch may have died before the row.)
            return;
        }
        Optional<JobRecord> changed = pool.withTransaction(tx -> jobs.observe(tx, s).chain(updated -> {
            if (updated.isPresent()) {
                return Outbox.append(tx, events.stateChanged(updated.get())).replaceWith(updated);
            }
            if (launching) {
                // Launched here: the launch records it (its row may not be committed yet); resync catches up.
                return Uni.createFrom().item(Optional.<JobRecord>empty());
            }
            return jobs.insertFound(tx, s).call(found -> {
                if (found.isEmpty()) {
                    return Uni.createFrom().voidItem();
                }
                if (s.ours()) {
                    LOG.warnf("SparkApplication %s/%s has no row %s after its creation (its launch did not finish:"
                            + " the replica stopped?): recorded as found on the cluster", s.namespace(), s.name(),
                            LAUNCH_GRACE);
                }
                return Outbox.append(tx, events.submitted(found.get()));
            });
        })).await().indefinitely();
        if (changed.isPresent() && JobState.finished(s.state())) {
            keepLog(s);
        }
    }

    private void keepLog(ApplicationStatus s) {
        String pod = s.driverPod() != null ? s.driverPod() : DriverLogs.driverPod(s.name());
        DriverLogs.tail(kube, s.namespace(), pod, KEPT_LINES)
                .ifPresent(log -> jobs.saveLog(s.namespace(), s.name(), log).await().indefinitely());
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
            // The history outlives the resource (the operator's TTL, kubectl delete): nothing to do.
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
