package io.lakehouse.local;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Plays the Spark Operator for {@code ScheduledSparkApplication}: at each time of its 5-field cron (in
 * {@code spec.timeZone}, UTC when empty) a run {@code <name>-<unix nanos>} from {@code spec.template}, with the
 * schedule's labels plus {@code sparkoperator.k8s.io/scheduled-app-name} and an owner reference; the concurrency
 * policy as the operator applies it (Forbid: not while the newest run is unfinished; Replace: that run is deleted
 * first; Allow; empty: only while no run exists). Suspended schedules wait. Status: nextRun, lastRun, lastRunName,
 * scheduleState.
 */
final class ScheduledSparkApplicationController implements Controller<GenericKubernetesResource> {

  static final String SCHEDULED_LABEL = "sparkoperator.k8s.io/scheduled-app-name";
  private static final Set<String> FINISHED = Set.of("COMPLETED", "FAILED");
  private static final CronParser CRON = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  private final GenericStatus status;
  private final KubernetesClient client;
  private final Map<String, ScheduledFuture<?>> timers = new ConcurrentHashMap<>();
  private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "spark-schedules");
    thread.setDaemon(true);
    return thread;
  });

  ScheduledSparkApplicationController(GenericStatus status, KubernetesClient client) {
    this.status = status;
    this.client = client;
  }

  @Override
  public synchronized void reconcile(GenericKubernetesResource schedule) {
    if (Boolean.TRUE.equals(schedule.get("spec", "suspend"))) {
      return;
    }
    Map<String, Object> next = new LinkedHashMap<>(GenericStatus.of(schedule));
    Optional<ExecutionTime> times = times(schedule.get("spec", "schedule"));
    ZoneId zone;
    try {
      String tz = schedule.get("spec", "timeZone");
      zone = tz == null || tz.isEmpty() ? ZoneId.of("UTC") : ZoneId.of(tz);
    } catch (RuntimeException e) {
      zone = null;
    }
    if (times.isEmpty() || zone == null) {
      next.put("scheduleState", "FailedValidation");
      next.put("reason", times.isEmpty() ? "invalid cron schedule" : "invalid time zone");
      status.write(schedule, next);
      return;
    }
    ZonedDateTime now = ZonedDateTime.now(zone);
    String due = (String) next.get("nextRun");
    if (due != null && !now.toInstant().isBefore(Instant.parse(due))) {
      run(schedule).ifPresent(run -> {
        next.put("lastRun", Timestamps.now());
        next.put("lastRunName", run);
      });
    }
    ZonedDateTime nextRun = times.get().nextExecution(now).orElseThrow();
    next.put("nextRun", nextRun.toInstant().toString());
    next.put("scheduleState", "Scheduled");
    next.remove("reason");
    status.write(schedule, next);
    wakeAt(schedule, nextRun.toInstant());
  }

  private Optional<String> run(GenericKubernetesResource schedule) {
    String ns = schedule.getMetadata().getNamespace();
    String name = schedule.getMetadata().getName();
    var apps = client.genericKubernetesResources(Kinds.SPARK_APPLICATION).inNamespace(ns);
    List<GenericKubernetesResource> runs = apps.withLabel(SCHEDULED_LABEL, name).list().getItems();
    Optional<GenericKubernetesResource> newest = runs.stream()
        .max(Comparator.comparing(r -> r.getMetadata().getCreationTimestamp()));
    boolean active = newest.isPresent()
        && !FINISHED.contains(Objects.requireNonNullElse(newest.get().get("status", "applicationState", "state"), ""));
    String policy = Objects.requireNonNullElse(schedule.get("spec", "concurrencyPolicy"), "");
    switch (policy) {
      case "Allow" -> { }
      case "Forbid" -> {
        if (active) {
          return Optional.empty();
        }
      }
      case "Replace" -> {
        if (active) {
          apps.withName(newest.get().getMetadata().getName()).delete();
        }
      }
      default -> {
        if (!runs.isEmpty()) {
          return Optional.empty();
        }
      }
    }
    String runName = name + "-" + (System.currentTimeMillis() * 1_000_000L);
    Map<String, String> labels = new HashMap<>(Objects.requireNonNullElse(schedule.getMetadata().getLabels(),
        Map.of()));
    labels.put(SCHEDULED_LABEL, name);
    GenericKubernetesResource app = new GenericKubernetesResource();
    app.setApiVersion(schedule.getApiVersion());
    app.setKind("SparkApplication");
    app.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(runName).withNamespace(ns)
        .withLabels(labels)
        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(schedule.getApiVersion())
            .withKind(schedule.getKind()).withName(name).withUid(schedule.getMetadata().getUid())
            .withBlockOwnerDeletion(true).build())
        .build());
    app.setAdditionalProperty("spec", schedule.get("spec", "template"));
    apps.resource(app).create();
    return Optional.of(runName);
  }

  private void wakeAt(GenericKubernetesResource schedule, Instant at) {
    String ns = schedule.getMetadata().getNamespace();
    String name = schedule.getMetadata().getName();
    String key = ns + "/" + name;
    long delay = Math.max(0, at.toEpochMilli() - System.currentTimeMillis()) + 50;
    ScheduledFuture<?> previous = timers.put(key, clock.schedule(() -> {
      GenericKubernetesResource current = client.genericKubernetesResources(Kinds.SCHEDULED_SPARK_APPLICATION)
          .inNamespace(ns).withName(name).get();
      if (current != null) {
        reconcile(current);
      }
    }, delay, TimeUnit.MILLISECONDS));
    if (previous != null) {
      previous.cancel(false);
    }
  }

  private static Optional<ExecutionTime> times(String cron) {
    if (cron == null || cron.trim().split("\\s+").length != 5) {
      return Optional.empty();
    }
    try {
      return Optional.of(ExecutionTime.forCron(CRON.parse(cron.trim()).validate()));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
