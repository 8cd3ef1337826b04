package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Plays the Deployment controller and the kubelet: every wanted replica is at once updated, ready and available. */
final class DeploymentController implements Controller<Deployment> {

  private final Watched<Deployment> deployments;

  DeploymentController(Watched<Deployment> deployments) {
    this.deployments = deployments;
  }

  @Override
  public void reconcile(Deployment current) {
    DeploymentStatus desired = desiredStatus(current);
    if (!desired.equals(current.getStatus())) {
      Deployment update = new Deployment();
      update.setStatus(desired);
      deployments.updateStatus(current, update);
    }
  }

  private static DeploymentStatus desiredStatus(Deployment deployment) {
    int replicas = Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 1);
    List<DeploymentCondition> existing =
        Optional.ofNullable(deployment.getStatus()).map(DeploymentStatus::getConditions).orElse(List.of());
    return new DeploymentStatusBuilder()
        .withObservedGeneration(deployment.getMetadata().getGeneration())
        .withReplicas(replicas)
        .withUpdatedReplicas(replicas)
        .withReadyReplicas(replicas)
        .withAvailableReplicas(replicas)
        .withConditions(
            condition(existing, "Available", "MinimumReplicasAvailable", "Deployment has minimum availability."),
            condition(existing, "Progressing", "NewReplicaSetAvailable", "ReplicaSet has successfully progressed."))
        .build();
  }

  /** Keeps an identical existing condition as it is, so that its transition time only changes on a flip. */
  private static DeploymentCondition condition(List<DeploymentCondition> existing, String type, String reason,
      String message) {
    return existing.stream()
        .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()) && reason.equals(c.getReason()))
        .findFirst()
        .orElseGet(() -> new DeploymentConditionBuilder()
            .withType(type)
            .withStatus("True")
            .withReason(reason)
            .withMessage(message)
            .withLastTransitionTime(Timestamps.now())
            .withLastUpdateTime(Timestamps.now())
            .build());
  }
}
