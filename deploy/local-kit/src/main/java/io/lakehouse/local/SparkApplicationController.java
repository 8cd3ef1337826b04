package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/**
 * Plays the Spark Operator for {@code sparkoperator.k8s.io/v1beta2 SparkApplication}: one state per step, new →
 * SUBMITTED → RUNNING → COMPLETED (or FAILED when the name matches the failure predicate).
 * {@code spec.suspend=true} moves a live application to SUSPENDED; setting it back to false resubmits it.
 */
final class SparkApplicationController implements Controller<GenericKubernetesResource> {

  private static final Set<String> TERMINAL = Set.of("COMPLETED", "FAILED");

  private final GenericStatus status;
  private volatile Predicate<String> failing = name -> false;

  SparkApplicationController(GenericStatus status) {
    this.status = status;
  }

  void failApplicationsNamed(Predicate<String> names) {
    this.failing = names;
  }

  @Override
  public void reconcile(GenericKubernetesResource app) {
    String state = Objects.requireNonNullElse(app.get("status", "applicationState", "state"), "");
    if (TERMINAL.contains(state)) {
      return;
    }
    Map<String, Object> next = new LinkedHashMap<>(GenericStatus.of(app));
    if (Boolean.TRUE.equals(app.get("spec", "suspend"))) {
      next.put("applicationState", Map.of("state", "SUSPENDED"));
    } else {
      switch (state) {
        case "", "SUSPENDED" -> submit(app, next);
        case "SUBMITTED" -> {
          next.put("applicationState", Map.of("state", "RUNNING"));
          next.put("sparkApplicationId", "spark-" + HexFormat.of().formatHex(randomBytes()));
        }
        case "RUNNING" -> finish(app, next);
        default -> {
          // A state this simulator never writes (set by hand): leave it for whoever wrote it.
          return;
        }
      }
    }
    status.write(app, next);
  }

  private static void submit(GenericKubernetesResource app, Map<String, Object> next) {
    String driverPod = Objects.requireNonNullElse(app.get("spec", "driver", "podName"),
        app.getMetadata().getName() + "-driver");
    next.put("applicationState", Map.of("state", "SUBMITTED"));
    next.put("submissionID", UUID.randomUUID().toString());
    next.put("submissionAttempts", count(next, "submissionAttempts") + 1);
    next.put("executionAttempts", count(next, "executionAttempts") + 1);
    next.put("lastSubmissionAttemptTime", Timestamps.now());
    next.put("driverInfo", Map.of("podName", driverPod));
    next.remove("terminationTime");
  }

  private void finish(GenericKubernetesResource app, Map<String, Object> next) {
    if (failing.test(app.getMetadata().getName())) {
      next.put("applicationState",
          Map.of("state", "FAILED", "errorMessage", "driver container failed with ExitCode: 1, Reason: Error"));
    } else {
      next.put("applicationState", Map.of("state", "COMPLETED"));
    }
    next.put("terminationTime", Timestamps.now());
  }

  private static int count(Map<String, Object> status, String field) {
    return ((Number) status.getOrDefault(field, 0)).intValue();
  }

  private static byte[] randomBytes() {
    byte[] bytes = new byte[16];
    ThreadLocalRandom.current().nextBytes(bytes);
    return bytes;
  }
}
