package io.lakehouse.sparkjobs.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.outbox.Outbox;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.sparkjobs.domain.JobNames;
import io.lakehouse.sparkjobs.domain.JobState;
import io.lakehouse.sparkjobs.domain.LaunchForm;
import io.lakehouse.sparkjobs.events.JobEvents;
import io.lakehouse.sparkjobs.kube.DriverLogs;
import io.lakehouse.sparkjobs.kube.SparkResources;
import io.lakehouse.sparkjobs.store.JobRecord;
import io.lakehouse.sparkjobs.store.JobStore;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/** Relaunch, cancel and delete of a job of the history. Worker threads: the Kubernetes client blocks. */
@ApplicationScoped
public class JobLifecycle {

    static final int KEPT_LINES = 200;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient kube;
    private final Pool pool;
    private final JobStore jobs;
    private final JobEvents events;
    private final JobService launcher;

    JobLifecycle(KubernetesClient kube, Pool pool, JobStore jobs, JobEvents events, JobService launcher) {
        this.kube = kube;
        this.pool = pool;
        this.jobs = jobs;
        this.events = events;
        this.launcher = launcher;
    }

    /**
     * A new {@code <name>-<suffix>} from the stored form, the profile resolved again; with changes, each
     * field the body gives replaces the stored one (the source as a whole).
     */
    public JobRecord relaunch(String namespace, String name, LaunchForm changes, String caller) {
        JobRecord job = find(namespace, name);
        if (job.handMade()) {
            throw ApiException.conflict("'" + name + "' was not launched through the API: there is no form to"
                    + " relaunch it from");
        }
        LaunchForm stored = read(job.form());
        if ("script".equals(stored.source().type())) {
            stored = stored.withScript(jobs.script(namespace, name).await().indefinitely().orElse(null));
        }
        LaunchForm base = changes == null ? stored : merge(stored, changes);
        String newName = changes != null && changes.name() != null ? changes.name() : JobNames.withSuffix(job.name());
        return launcher.launch(namespace, base.withName(newName), caller, null);
    }

    /** Stops driver and executors (the resource and its pods go) and records CANCELLED; 409 unless active. */
    public JobRecord cancel(String namespace, String name) {
        JobRecord job = find(namespace, name);
        if (JobState.finished(job.state())) {
            throw ApiException.conflict("'" + name + "' is " + job.state() + ": only an active job can be cancelled");
        }
        DriverLogs.tail(kube, namespace, DriverLogs.driverPod(name), KEPT_LINES)
                .ifPresent(log -> jobs.saveLog(namespace, name, log).await().indefinitely());
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        JobRecord cancelled = pool.withTransaction(tx -> jobs.cancel(tx, namespace, name, now).call(updated -> {
            if (updated.isEmpty()) {
                throw ApiException.conflict("'" + name + "' has just ended: only an active job can be cancelled");
            }
            return Outbox.append(tx, events.stateChanged(updated.get()));
        })).await().indefinitely().orElseThrow();
        kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(namespace).withName(name).delete();
        // Garbage collection removes the pods on a real cluster; deleting them too stops them at once.
        kube.pods().inNamespace(namespace).withLabel(SparkResources.APP_NAME_LABEL, name).delete();
        return cancelled;
    }

    /** A finished job: the resource, its ConfigMap, its row and stored log; 409 while it is active. */
    public void delete(String namespace, String name) {
        JobRecord job = find(namespace, name);
        if (!JobState.finished(job.state())) {
            throw ApiException.conflict("'" + name + "' is " + job.state() + ": cancel it first, only a finished job"
                    + " can be deleted");
        }
        kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(namespace).withName(name).delete();
        kube.configMaps().inNamespace(namespace).withName(JobNames.configMap(name)).delete();
        pool.withTransaction(tx -> jobs.delete(tx, namespace, name).call(deleted -> deleted.isEmpty()
                ? io.smallrye.mutiny.Uni.createFrom().voidItem()
                : Outbox.append(tx, events.deleted(deleted.get())))).await().indefinitely();
    }

    private JobRecord find(String namespace, String name) {
        return jobs.get(namespace, name).await().indefinitely()
                .orElseThrow(() -> JobService.notFound(namespace, name));
    }

    private static LaunchForm merge(LaunchForm s, LaunchForm c) {
        boolean image = c.image() != null;
        boolean profile = c.profile() != null;
        return new LaunchForm(s.name(),
                image ? null : (profile ? c.profile() : s.profile()),
                profile ? null : (image ? c.image() : s.image()),
                profile ? null : (image ? c.pullSecret() : s.pullSecret()),
                c.source() != null ? c.source() : s.source(),
                c.source() != null || c.mainClass() != null ? c.mainClass() : s.mainClass(),
                c.driver() != null ? c.driver() : s.driver(),
                c.executor() != null ? c.executor() : s.executor(),
                c.arguments() != null ? c.arguments() : s.arguments(),
                c.sparkConf() != null ? c.sparkConf() : s.sparkConf(),
                c.ttlHours() != null ? c.ttlHours() : s.ttlHours());
    }

    private static LaunchForm read(String json) {
        try {
            return JSON.readValue(json, LaunchForm.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored form is not readable: " + e.getOriginalMessage(), e);
        }
    }
}
