package io.lakehouse.sparkjobs.events;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lakehouse.common.config.ServiceSettings;
import io.lakehouse.common.metrics.LakehouseMetrics;
import io.lakehouse.common.outbox.Outbox;
import io.lakehouse.sparkjobs.domain.JobState;
import io.lakehouse.sparkjobs.kube.ApplicationStatus;
import io.lakehouse.sparkjobs.kube.CompactApplicationStore;
import io.lakehouse.sparkjobs.kube.DriverLogs;
import io.lakehouse.sparkjobs.kube.SparkResources;
import io.lakehouse.sparkjobs.store.JobStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
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
 * with its driver's lines in one. The informer's thread hands the changes, in its order, to one writer
 * ({@link BatchedWriter}): the changes of several jobs that arrive while a transaction runs share the next one,
 * each with its event, so a burst of jobs costs a few transactions and relay passes instead of one per change.
 */
@ApplicationScoped
public class JobTracker {

    private static final Logger LOG = Logger.getLogger(JobTracker.class);
    static final int KEPT_LINES = 200;
    private static final long RESYNC_MILLIS = 60_000;
    static final Duration LAUNCH_GRACE = Duration.ofSeconds(30);
    /** {@code lakehouse_sparkjobs_tracker_queue_depth}: state changes seen, not yet handed to a transaction. */
    static final String QUEUE_DEPTH = "lakehouse.sparkjobs.tracker.queue.depth";
    /** Changes in one transaction at most: a few ms of row locks, one relay pass for their events. */
    private static final int MAX_BATCH = 100;
    /** Changes waiting at most before the informer's thread waits for the writer (nothing is dropped). */
    private static final int QUEUE_CAPACITY = 10_000;

    private final KubernetesClient kube;
    private final Pool pool;
    private final JobStore jobs;
    private final JobEvents events;
    private final ServiceSettings service;
    private final SeenStates seen = new SeenStates();
    private SharedIndexInformer<GenericKubernetesResource> informer;
    private BatchedWriter<Change, Recorded> writer;

    JobTracker(KubernetesClient kube, Pool pool, JobStore jobs, JobEvents events, ServiceSettings service) {
        this.kube = kube;
        this.pool = pool;
        this.jobs = jobs;
        this.events = events;
        this.service = service;
    }

    void start(@Observes StartupEvent event) {
        writer = new BatchedWriter<>("sparkjobs-history-writer", pool, QUEUE_CAPACITY, MAX_BATCH,
                new BatchedWriter.Steps<>() {
                    @Override
                    public Uni<Recorded> write(SqlConnection tx, Change change) {
                        return record(tx, change);
                    }

                    @Override
                    public void written(Change change, Recorded result) {
                        JobTracker.this.written(change, result);
                    }

                    @Override
                    public void failed(Change change, RuntimeException e) {
                        JobTracker.this.failed(change, e);
                    }
                });
        LakehouseMetrics.gauge(QUEUE_DEPTH, "SparkApplication state changes waiting for the history's writer", null,
                writer::queued);
        try {
            // The cache keeps compact copies (every application stays in it until the operator's TTL).
            informer = kube.genericKubernetesResources(SparkResources.APPLICATIONS).inAnyNamespace()
                    .runnableInformer(RESYNC_MILLIS).itemStore(new CompactApplicationStore()).removeNamespaceIndex();
            informer.addEventHandler(new Handler());
            informer.run();
        } catch (RuntimeException e) {
            // No operator CRD on this cluster: launches answer 503 with that reason; nothing to follow.
            LOG.warnf("not following SparkApplications: %s", e.getMessage());
        }
    }

    void stop(@Observes ShutdownEvent event) {
        if (informer != null) {
            informer.close();
        }
        if (writer != null) {
            writer.stop();
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
            // A resync or a status update that changed no state: the history has it (or its write is queued).
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
        seen.queued(uid, s.state());
        writer.submit(new Change(uid, s, launching, logRead, log));
    }

    /** A state to write, as the informer saw it, with the driver's lines when they go with it. */
    private record Change(String uid, ApplicationStatus status, boolean launching, boolean logRead, String log) {}

    /** The statements of one change, in the transaction it shares with the changes queued with it. */
    private Uni<Recorded> record(SqlConnection tx, Change c) {
        ApplicationStatus s = c.status();
        return jobs.observe(tx, s, c.log()).chain(updated -> {
            if (updated.isPresent()) {
                return Outbox.append(tx, events.stateChanged(updated.get())).replaceWith(Recorded.CHANGED);
            }
            if (c.launching()) {
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
        });
    }

    /** After the change's commit: what the history now holds; the driver's lines when they could not go with it. */
    private void written(Change c, Recorded result) {
        ApplicationStatus s = c.status();
        seen.settled(c.uid(), s.state(), result != Recorded.UNKNOWN);
        if (result == Recorded.CHANGED && !c.logRead() && JobState.finished(s.state())) {
            driverLog(s).ifPresent(lines -> jobs.saveLog(s.namespace(), s.name(), lines).await().indefinitely());
        }
    }

    private void failed(Change c, RuntimeException e) {
        // Not held: the next event of this state (the resync's at the latest) tries again.
        seen.settled(c.uid(), c.status().state(), false);
        LOG.warnf("SparkApplication %s/%s not recorded (the next resync tries again): %s", c.status().namespace(),
                c.status().name(), e.getMessage());
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
                LOG.warnf("SparkApplication %s/%s not queued (the next resync tries again): %s",
                        app.getMetadata().getNamespace(), app.getMetadata().getName(), e.getMessage());
            }
        }
    }
}
