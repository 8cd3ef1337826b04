package io.lakehouse.local.realrun;

import io.fabric8.kubernetes.api.model.ConfigMapVolumeSource;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecretVolumeSource;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Makes one container of a generated pod runnable as a local process: its environment resolved as the kubelet
 * would, and its ConfigMap, Secret and directory volumes written where the {@link LocalRewrites} put their mount
 * paths. Nothing else of the pod is interpreted here.
 */
public final class PodMaterializer {

  private final ObjectSource source;
  private final LocalRewrites rewrites;

  public PodMaterializer(ObjectSource source, LocalRewrites rewrites) {
    this.source = source;
    this.rewrites = rewrites;
  }

  public LocalPod materialize(PodSpec pod, String containerName, String namespace, String podName) {
    Container container = pod.getContainers().stream().filter(c -> c.getName().equals(containerName)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no container " + containerName));
    Map<String, String> env = new EnvResolver(source, namespace, podName)
        .resolve(nonNull(container.getEnvFrom()), nonNull(container.getEnv()));
    env.replaceAll((k, v) -> rewrites.apply(v));
    Map<String, Volume> volumes = new HashMap<>();
    nonNull(pod.getVolumes()).forEach(v -> volumes.put(v.getName(), v));
    for (VolumeMount mount : nonNull(container.getVolumeMounts())) {
      Volume volume = Objects.requireNonNull(volumes.get(mount.getName()), "no volume " + mount.getName());
      write(volume, mount, namespace);
    }
    return new LocalPod(container.getImage(), expand(container.getCommand(), env), expand(container.getArgs(), env),
        env);
  }

  private List<String> expand(List<String> values, Map<String, String> env) {
    return nonNull(values).stream().map(v -> rewrites.apply(EnvResolver.expand(v, env))).toList();
  }

  private void write(Volume volume, VolumeMount mount, String namespace) {
    Path target = rewrites.localPath(mount.getMountPath());
    String subPath = mount.getSubPath();
    if (volume.getConfigMap() != null) {
      ConfigMapVolumeSource cm = volume.getConfigMap();
      Map<String, String> data = source.configMap(namespace, cm.getName())
          .orElseThrow(() -> new IllegalStateException("ConfigMap " + cm.getName() + " not found"));
      Map<String, byte[]> files = new HashMap<>();
      data.forEach((k, v) -> files.put(k, rewrites.apply(v).getBytes(StandardCharsets.UTF_8)));
      writeFiles(target, subPath, select(files, cm.getItems()));
    } else if (volume.getSecret() != null) {
      SecretVolumeSource s = volume.getSecret();
      Map<String, String> data = source.secret(namespace, s.getSecretName())
          .orElseThrow(() -> new IllegalStateException("Secret " + s.getSecretName() + " not found"));
      Map<String, byte[]> files = new HashMap<>();
      data.forEach((k, v) -> files.put(k, SecretBytes.bytes(v)));
      writeFiles(target, subPath, select(files, s.getItems()));
    } else if (volume.getEmptyDir() != null || volume.getPersistentVolumeClaim() != null) {
      mkdirs(target);
    } else {
      throw new IllegalArgumentException("volume " + volume.getName() + ": only configMap, secret, emptyDir and"
          + " persistentVolumeClaim volumes run locally");
    }
  }

  /** The files of the volume: every key, or only the listed items under their paths. */
  private static Map<String, byte[]> select(Map<String, byte[]> files, List<KeyToPath> items) {
    if (items == null || items.isEmpty()) {
      return files;
    }
    Map<String, byte[]> selected = new HashMap<>();
    for (KeyToPath item : items) {
      byte[] content = Objects.requireNonNull(files.get(item.getKey()), "no key " + item.getKey());
      selected.put(item.getPath(), content);
    }
    return selected;
  }

  /** With a subPath, the mount path is that one file of the volume; else a folder of all of them. */
  private static void writeFiles(Path target, String subPath, Map<String, byte[]> files) {
    try {
      if (subPath != null && !subPath.isEmpty()) {
        byte[] content = Objects.requireNonNull(files.get(subPath), "no file " + subPath + " in the volume");
        mkdirs(target.getParent());
        Files.write(target, content);
        return;
      }
      mkdirs(target);
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        Path file = target.resolve(f.getKey()).normalize();
        if (!file.startsWith(target)) {
          throw new IllegalArgumentException("volume file " + f.getKey() + " leaves its folder");
        }
        mkdirs(file.getParent());
        Files.write(file, f.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void mkdirs(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static <T> List<T> nonNull(List<T> list) {
    return list == null ? List.of() : list;
  }
}
