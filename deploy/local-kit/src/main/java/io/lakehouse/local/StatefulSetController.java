package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatusBuilder;
import java.util.Objects;

/** Plays the StatefulSet controller and the kubelet: every wanted replica is at once current, ready and available. */
final class StatefulSetController implements Controller<StatefulSet> {

  private final Watched<StatefulSet> statefulSets;

  StatefulSetController(Watched<StatefulSet> statefulSets) {
    this.statefulSets = statefulSets;
  }

  @Override
  public void reconcile(StatefulSet current) {
    int replicas = Objects.requireNonNullElse(current.getSpec().getReplicas(), 1);
    StatefulSetStatus desired = new StatefulSetStatusBuilder()
        .withObservedGeneration(current.getMetadata().getGeneration())
        .withReplicas(replicas)
        .withReadyReplicas(replicas)
        .withAvailableReplicas(replicas)
        .withCurrentReplicas(replicas)
        .withUpdatedReplicas(replicas)
        .build();
    if (!desired.equals(current.getStatus())) {
      StatefulSet update = new StatefulSet();
      update.setStatus(desired);
      statefulSets.updateStatus(current, update);
    }
  }
}
