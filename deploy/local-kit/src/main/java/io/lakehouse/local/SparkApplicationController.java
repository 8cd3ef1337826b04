package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * Plays the Spark Operator for {@code sparkoperator.k8s.io/v1beta2 SparkApplication}: one state per step, new →
 * SUBMITTED → RUNNING → COMPLETED (or FAILED when the name matches the failure predicate).
 * {@code spec.suspend=true} moves a live application to SUSPENDED; setting it back to false resubmits it.
 * RUNNING brings a driver pod and {@code spec.executor.instances} executor pods (the operator's labels, owned by the
 * application) whose driver writes log lines ({@link PodLogs}); the end leaves the driver Succeeded or Failed with
 * its last lines and deletes the executors; {@code spec.timeToLiveSeconds} after the end, the application goes.
 */
final class SparkApplicationController implements Controller<GenericKubernetesResource> {

  private static final Set<String> TERMINAL = Set.of("COMPLETED", "FAILED");

  static final String APP_LABEL = "sparkoperator.k8s.io/app-name";
  static final String ROLE_LABEL = "spark-role";
  private static final String RUNNING_PHASE = "Running";

  private final GenericStatus status;
  private final KubernetesClient client;
  private final ScheduledExecutorService ttl = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "spark-ttl");
    thread.setDaemon(true);
    return thread;
  });
  private volatile Predicate<String> failing = name -> false;

  SparkApplicationController(GenericStatus status, KubernetesClient client) {
    this.status = status;
    this.client = client;
  }

  void failApplicationsNamed(Predicate<String> names) {
    this.failing = names;
  }

  @Override
  public void reconcile(GenericKubernetesResource app) {
    String state = Objects.requireNonNullElse(app.get("status", "applicationState", "state"), "");
    if (TERMINAL.contains(state)) {
      scheduleTtl(app);
      return;
    }
    Map<String, Object> next = new LinkedHashMap<>(GenericStatus.of(app));
    if (Boolean.TRUE.equals(app.get("spec", "suspend"))) {
      next.put("applicationState", Map.of("state", "SUSPENDED"));
    } else {
      switch (state) {
        case "", "SUSPENDED" -> submit(app, next);
        case "SUBMITTED" -> {
          startPods(app);
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
    boolean failed = failing.test(app.getMetadata().getName());
    endPods(app, failed);
    if (failed) {
      next.put("applicationState",
          Map.of("state", "FAILED", "errorMessage", "driver container failed with ExitCode: 1, Reason: Error"));
    } else {
      next.put("applicationState", Map.of("state", "COMPLETED"));
    }
    next.put("terminationTime", Timestamps.now());
  }

  private void startPods(GenericKubernetesResource app) {
    String ns = app.getMetadata().getNamespace();
    String name = app.getMetadata().getName();
    String driver = driverPod(app);
    PodLogs.append(ns, driver, "INFO SparkContext: Running Spark version " + app.get("spec", "sparkVersion"));
    PodLogs.append(ns, driver, "INFO SparkContext: Submitted application: " + name);
    pod(app, driver, "driver");
    List<String> executors = executorPods(app);
    for (int i = 1; i <= executors.size(); i++) {
      pod(app, executors.get(i - 1), "executor");
      PodLogs.append(ns, driver, "INFO ExecutorAllocator: executor " + i + " registered");
    }
  }

  private void endPods(GenericKubernetesResource app, boolean failed) {
    String ns = app.getMetadata().getNamespace();
    String driver = driverPod(app);
    if (failed) {
      PodLogs.append(ns, driver, "ERROR SparkContext: job aborted: simulated failure");
    } else {
      PodLogs.append(ns, driver, "INFO DAGScheduler: Job 0 finished");
      PodLogs.append(ns, driver, "INFO SparkContext: Successfully stopped SparkContext");
    }
    // One merge patch of the status (no read first), and the executors by the names they were given: a delete by
    // label selector makes the API server look at every pod of the namespace, under its store's lock.
    client.pods().resource(new PodBuilder().withNewMetadata().withName(driver).withNamespace(ns).endMetadata()
        .withNewStatus().withPhase(failed ? "Failed" : "Succeeded").endStatus().build()).patchStatus();
    executorPods(app).forEach(executor -> client.pods().inNamespace(ns).withName(executor).delete());
  }

  /** The executors' names: {@code <name>-exec-<i>} for {@code spec.executor.instances} (default 1). */
  private static List<String> executorPods(GenericKubernetesResource app) {
    Number executors = Objects.requireNonNullElse(app.get("spec", "executor", "instances"), 1);
    return IntStream.rangeClosed(1, executors.intValue())
        .mapToObj(i -> app.getMetadata().getName() + "-exec-" + i).toList();
  }

  /**
   * Creates the pod Running: the status goes with the create (the local API keeps it), and only an API server that
   * drops it (a real one) gets a second write.
   */
  private void pod(GenericKubernetesResource app, String podName, String role) {
    Pod pod = new PodBuilder()
        .withNewMetadata().withName(podName).withNamespace(app.getMetadata().getNamespace())
        .withLabels(Map.of(APP_LABEL, app.getMetadata().getName(), ROLE_LABEL, role))
        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(app.getApiVersion()).withKind(app.getKind())
            .withName(app.getMetadata().getName()).withUid(app.getMetadata().getUid()).build())
        .endMetadata()
        .withNewSpec().addNewContainer().withName("spark-kubernetes-" + role)
        .withImage(Objects.requireNonNullElse(app.get("spec", "image"), "apache/spark")).endContainer().endSpec()
        .withStatus(new PodStatusBuilder().withPhase(RUNNING_PHASE).build())
        .build();
    Pod created = client.pods().resource(pod).createOr(existing -> existing.update());
    if (created.getStatus() == null || !RUNNING_PHASE.equals(created.getStatus().getPhase())) {
      client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(podName).editStatus(p -> {
        p.setStatus(new PodStatusBuilder().withPhase(RUNNING_PHASE).build());
        return p;
      });
    }
  }

  /** The operator deletes a finished application {@code timeToLiveSeconds} after its termination time. */
  private void scheduleTtl(GenericKubernetesResource app) {
    Number seconds = app.get("spec", "timeToLiveSeconds");
    String terminated = app.get("status", "terminationTime");
    if (seconds == null || terminated == null) {
      return;
    }
    long delay = Math.max(0, Instant.parse(terminated).plusSeconds(seconds.longValue()).toEpochMilli()
        - System.currentTimeMillis());
    String ns = app.getMetadata().getNamespace();
    String name = app.getMetadata().getName();
    String uid = app.getMetadata().getUid();
    ttl.schedule(() -> {
      var current = client.genericKubernetesResources(Kinds.SPARK_APPLICATION).inNamespace(ns).withName(name).get();
      if (current != null && uid.equals(current.getMetadata().getUid())) {
        client.genericKubernetesResources(Kinds.SPARK_APPLICATION).inNamespace(ns).withName(name).delete();
        client.pods().inNamespace(ns).withLabel(APP_LABEL, name).delete();
        PodLogs.remove(ns, driverPod(current));
      }
    }, delay, TimeUnit.MILLISECONDS);
  }

  private static String driverPod(GenericKubernetesResource app) {
    return Objects.requireNonNullElse(app.get("spec", "driver", "podName"), app.getMetadata().getName() + "-driver");
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
