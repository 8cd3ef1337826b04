package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatusBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Objects;

/** Plays the StatefulSet controller and the kubelet: every wanted replica is at once current, ready and available. */
final class StatefulSetController implements Controller<StatefulSet> {

  private final Watched<StatefulSet> statefulSets;
  private final KubernetesSerialization serialization;

  StatefulSetController(Watched<StatefulSet> statefulSets, KubernetesSerialization serialization) {
    this.statefulSets = statefulSets;
    this.serialization = serialization;
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
      StatefulSet updated = serialization.clone(current);
      updated.setStatus(desired);
      statefulSets.resource(updated).updateStatus();
    }
  }
}
