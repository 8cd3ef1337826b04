package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Plays the Job controller: a Job finishes in one step, successfully unless its name matches the failure predicate,
 * in which case it exhausts its backoff limit. A finished or suspended Job is left alone.
 */
final class JobController implements Controller<Job> {

  private static final int DEFAULT_BACKOFF_LIMIT = 6;

  private final Watched<Job> jobs;
  private volatile Predicate<String> failing = name -> false;

  JobController(Watched<Job> jobs) {
    this.jobs = jobs;
  }

  void failJobsNamed(Predicate<String> names) {
    this.failing = names;
  }

  @Override
  public void reconcile(Job current) {
    if (finished(current) || Boolean.TRUE.equals(current.getSpec().getSuspend())) {
      return;
    }
    Job update = new Job();
    update.setStatus(failing.test(current.getMetadata().getName()) ? failed(current) : succeeded(current));
    jobs.updateStatus(current, update);
  }

  private static boolean finished(Job job) {
    return Optional.ofNullable(job.getStatus()).map(JobStatus::getConditions).stream()
        .flatMap(List::stream)
        .anyMatch(c -> "True".equals(c.getStatus())
            && ("Complete".equals(c.getType()) || "Failed".equals(c.getType())));
  }

  private static JobStatus succeeded(Job job) {
    String now = Timestamps.now();
    return new JobStatusBuilder()
        .withStartTime(now)
        .withCompletionTime(now)
        .withSucceeded(Objects.requireNonNullElse(job.getSpec().getCompletions(), 1))
        .withConditions(
            condition("SuccessCriteriaMet", "CompletionsReached", "Reached expected number of succeeded pods", now),
            condition("Complete", "CompletionsReached", "Reached expected number of succeeded pods", now))
        .build();
  }

  private static JobStatus failed(Job job) {
    String now = Timestamps.now();
    return new JobStatusBuilder()
        .withStartTime(now)
        .withFailed(Objects.requireNonNullElse(job.getSpec().getBackoffLimit(), DEFAULT_BACKOFF_LIMIT) + 1)
        .withConditions(
            condition("FailureTarget", "BackoffLimitExceeded", "Job has reached the specified backoff limit", now),
            condition("Failed", "BackoffLimitExceeded", "Job has reached the specified backoff limit", now))
        .build();
  }

  private static JobCondition condition(String type, String reason, String message, String now) {
    return new JobConditionBuilder()
        .withType(type)
        .withStatus("True")
        .withReason(reason)
        .withMessage(message)
        .withLastProbeTime(now)
        .withLastTransitionTime(now)
        .build();
  }
}
