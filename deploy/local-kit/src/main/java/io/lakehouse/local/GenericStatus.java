package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Reads and writes the {@code status} of a custom resource held as an untyped map. */
final class GenericStatus {

  private final Watched<GenericKubernetesResource> resources;
  private final KubernetesSerialization serialization;

  GenericStatus(Watched<GenericKubernetesResource> resources, KubernetesSerialization serialization) {
    this.resources = resources;
    this.serialization = serialization;
  }

  static Map<String, Object> of(GenericKubernetesResource resource) {
    return Objects.requireNonNullElse(resource.get("status"), Map.of());
  }

  /** The existing condition of that type when it already says the same, so its transition time is kept. */
  static Map<String, Object> condition(GenericKubernetesResource resource, String type, String status, String reason,
      String message) {
    List<Map<String, Object>> existing = Objects.requireNonNullElse(resource.get("status", "conditions"), List.of());
    return existing.stream()
        .filter(c -> type.equals(c.get("type")) && status.equals(c.get("status")) && reason.equals(c.get("reason")))
        .findFirst()
        .orElseGet(() -> Map.of("type", type, "status", status, "reason", reason, "message", message,
            "lastTransitionTime", Timestamps.now()));
  }

  /** Writes {@code desired} through the status subresource unless it is what the resource already has. */
  void write(GenericKubernetesResource current, Map<String, Object> desired) {
    // Compare after a JSON round trip: numbers then have the types the cached copy was parsed with.
    Map<?, ?> normalised = serialization.unmarshal(serialization.asJson(desired), Map.class);
    Object existing = current.get("status");
    if (normalised.equals(existing)) {
      return;
    }
    GenericKubernetesResource update = new GenericKubernetesResource();
    update.setApiVersion(current.getApiVersion());
    update.setKind(current.getKind());
    update.setAdditionalProperty("status", desired);
    resources.updateStatus(current, update);
  }
}
