package io.lakehouse.sparkjobs.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lakehouse.sparkjobs.domain.JobState;
import io.lakehouse.sparkjobs.store.JobRecord;
import java.time.Duration;
import java.time.OffsetDateTime;

/**
 * A job of the history as the API shows it.
 *
 * @param schedule the schedule that started it (the ⏱ marker), absent for a job launched by hand
 * @param handMade made with kubectl, not through the API: no form, so no relaunch
 * @param note what the user should know, e.g. that the operator has not answered
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobView(String name, String state, String sourceType, String profile, String schedule,
        String createdBy, OffsetDateTime createdAt, OffsetDateTime startedAt, OffsetDateTime endedAt,
        Long durationSeconds, boolean handMade, String error, String note) {

    static JobView of(JobRecord job) {
        return of(job, null);
    }

    /** With a note when the operator has not answered within {@code timeout} (it may not watch the namespace). */
    static JobView of(JobRecord job, java.time.Duration timeout) {
        Long duration = job.startedAt() == null ? null
                : Duration.between(job.startedAt(), job.endedAt() != null ? job.endedAt() : OffsetDateTime.now())
                        .toSeconds();
        return new JobView(job.name(), job.state(), job.sourceType(), job.profile(), job.schedule(),
                job.createdBy(), job.createdAt(), job.startedAt(), job.endedAt(), duration, job.handMade(),
                job.error(), silent(job, timeout) ? "the Spark Operator has not picked this job up after "
                        + timeout.toSeconds() + " s: it may not watch namespace '" + job.namespace()
                        + "' (spark.jobNamespaces of its chart)" : null);
    }

    private static boolean silent(JobRecord job, java.time.Duration timeout) {
        return timeout != null && JobState.NEW.equals(job.state())
                && job.createdAt().plus(timeout).isBefore(OffsetDateTime.now());
    }
}
