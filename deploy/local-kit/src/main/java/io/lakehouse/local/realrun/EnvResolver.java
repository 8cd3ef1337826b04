package io.lakehouse.local.realrun;

import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A container's environment as the kubelet makes it: {@code envFrom} first, then {@code env} in order, values from
 * Secrets and ConfigMaps, {@code $(VAR)} expanded from the variables defined before it ({@code $$} escapes, an
 * unknown reference stays as written), {@code fieldRef}s of the pod's own metadata.
 */
final class EnvResolver {

  private final ObjectSource source;
  private final String namespace;
  private final String podName;

  EnvResolver(ObjectSource source, String namespace, String podName) {
    this.source = source;
    this.namespace = namespace;
    this.podName = podName;
  }

  Map<String, String> resolve(List<EnvFromSource> envFrom, List<EnvVar> env) {
    Map<String, String> out = new LinkedHashMap<>();
    for (EnvFromSource from : envFrom) {
      String prefix = from.getPrefix() == null ? "" : from.getPrefix();
      if (from.getSecretRef() != null) {
        source.secret(namespace, from.getSecretRef().getName()).ifPresent(data -> data.forEach(
            (k, v) -> out.put(prefix + k, SecretBytes.text(v))));
      }
      if (from.getConfigMapRef() != null) {
        source.configMap(namespace, from.getConfigMapRef().getName()).ifPresent(data -> data.forEach(
            (k, v) -> out.put(prefix + k, v)));
      }
    }
    for (EnvVar var : env) {
      String value = var.getValueFrom() != null ? valueFrom(var.getName(), var.getValueFrom())
          : expand(var.getValue() == null ? "" : var.getValue(), out);
      if (value != null) {
        out.put(var.getName(), value);
      }
    }
    return out;
  }

  /** Kubernetes' {@code $(VAR)} expansion: {@code $$(VAR)} gives {@code $(VAR)}, an unknown name stays. */
  static String expand(String value, Map<String, String> defined) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < value.length()) {
      char c = value.charAt(i);
      if (c == '$' && i + 1 < value.length() && value.charAt(i + 1) == '$') {
        out.append('$');
        i += 2;
      } else if (c == '$' && i + 1 < value.length() && value.charAt(i + 1) == '(') {
        int end = value.indexOf(')', i + 2);
        if (end < 0) {
          out.append(value, i, value.length());
          break;
        }
        String name = value.substring(i + 2, end);
        out.append(defined.containsKey(name) ? defined.get(name) : value.substring(i, end + 1));
        i = end + 1;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  private String valueFrom(String name, EnvVarSource from) {
    if (from.getSecretKeyRef() != null) {
      SecretKeySelector ref = from.getSecretKeyRef();
      return required(name, ref.getName(), ref.getKey(), ref.getOptional(),
          source.secret(namespace, ref.getName()).map(d -> d.get(ref.getKey())).map(SecretBytes::text));
    }
    if (from.getConfigMapKeyRef() != null) {
      ConfigMapKeySelector ref = from.getConfigMapKeyRef();
      return required(name, ref.getName(), ref.getKey(), ref.getOptional(),
          source.configMap(namespace, ref.getName()).map(d -> d.get(ref.getKey())));
    }
    if (from.getFieldRef() != null) {
      return switch (from.getFieldRef().getFieldPath()) {
        case "metadata.namespace" -> namespace;
        case "metadata.name", "spec.nodeName" -> podName;
        case "status.podIP", "status.hostIP" -> "127.0.0.1";
        default -> throw new IllegalArgumentException(
            "env " + name + ": fieldRef " + from.getFieldRef().getFieldPath() + " is not supported locally");
      };
    }
    throw new IllegalArgumentException("env " + name + ": only secretKeyRef, configMapKeyRef and fieldRef are"
        + " supported locally");
  }

  /** A missing object or key fails the pod, as the kubelet does (CreateContainerConfigError), unless optional. */
  private static String required(String env, String object, String key, Boolean optional, Optional<String> value) {
    if (value.isPresent() || Boolean.TRUE.equals(optional)) {
      return value.orElse(null);
    }
    throw new IllegalStateException("env " + env + ": key '" + key + "' of '" + object + "' not found");
  }
}
