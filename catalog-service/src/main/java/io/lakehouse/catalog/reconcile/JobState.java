package io.lakehouse.catalog.reconcile;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.util.Optional;

/** The outcome of a Job as its status tells it. */
enum JobState {
    ABSENT,
    RUNNING,
    SUCCEEDED,
    FAILED;

    static JobState of(Job job) {
        if (job == null) {
            return ABSENT;
        }
        if (job.getStatus() == null) {
            return RUNNING;
        }
        if (condition(job, "Complete").isPresent()
                || job.getStatus().getSucceeded() != null && job.getStatus().getSucceeded() > 0) {
            return SUCCEEDED;
        }
        return condition(job, "Failed").isPresent() ? FAILED : RUNNING;
    }

    /** The message of the Failed condition, for the instance's status. */
    static String failureMessage(Job job) {
        return condition(job, "Failed").map(c -> c.getReason() + ": " + c.getMessage()).orElse("the task failed");
    }

    private static Optional<JobCondition> condition(Job job, String type) {
        return job.getStatus().getConditions() == null ? Optional.empty()
                : job.getStatus().getConditions().stream()
                        .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()))
                        .findFirst();
    }
}
