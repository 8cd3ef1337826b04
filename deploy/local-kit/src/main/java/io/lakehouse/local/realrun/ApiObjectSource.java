package io.lakehouse.local.realrun;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Optional;

/** Secrets and ConfigMaps as the (local) API server has them. */
public final class ApiObjectSource implements ObjectSource {

  private final KubernetesClient client;

  public ApiObjectSource(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public Optional<Map<String, String>> secret(String namespace, String name) {
    Secret s = client.secrets().inNamespace(namespace).withName(name).get();
    return Optional.ofNullable(s).map(x -> x.getData() == null ? Map.of() : x.getData());
  }

  @Override
  public Optional<Map<String, String>> configMap(String namespace, String name) {
    ConfigMap c = client.configMaps().inNamespace(namespace).withName(name).get();
    return Optional.ofNullable(c).map(x -> x.getData() == null ? Map.of() : x.getData());
  }
}
