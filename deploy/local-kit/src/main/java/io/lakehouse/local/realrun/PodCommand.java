package io.lakehouse.local.realrun;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code pod}: runs one container of a Deployment the services generated as a local process, until it exits or
 * this JVM is stopped.
 *
 * <pre>
 * pod --api URL --namespace NS --deployment NAME --root DIR --dist DIR [--container NAME] [--java-home DIR]
 *     [--address SERVICE:PORT=HOST:PORT]... [--host HOST:PORT=HOST:PORT]... [--url FROM=TO]...
 *     [--path /CONTAINER/PATH=DIR]... [--listen-port CONTAINER_PORT=LOCAL_PORT]...
 * </pre>
 */
public final class PodCommand {

  private PodCommand() {
  }

  public static int run(List<String> argv) throws IOException, InterruptedException {
    Map<String, List<String>> options = options(argv);
    String namespace = one(options, "namespace");
    LocalRewrites rewrites = new LocalRewrites(namespace);
    for (String a : options.getOrDefault("address", List.of())) {
      String[] from = pair(a)[0].split(":");
      rewrites.address(from[0], Integer.parseInt(from[1]), pair(a)[1]);
    }
    for (String h : options.getOrDefault("host", List.of())) {
      String[] from = pair(h)[0].split(":");
      rewrites.host(from[0], Integer.parseInt(from[1]), pair(h)[1]);
    }
    for (String u : options.getOrDefault("url", List.of())) {
      rewrites.url(pair(u)[0], pair(u)[1]);
    }
    for (String p : options.getOrDefault("path", List.of())) {
      rewrites.path(pair(p)[0], Path.of(pair(p)[1]));
    }
    Map<Integer, Integer> listenPorts = new TreeMap<>();
    for (String l : options.getOrDefault("listen-port", List.of())) {
      listenPorts.put(Integer.parseInt(pair(l)[0]), Integer.parseInt(pair(l)[1]));
    }
    LocalPod pod;
    try (KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(new io.fabric8.kubernetes.client.ConfigBuilder().withMasterUrl(one(options, "api")).build())
        .build()) {
      String name = one(options, "deployment");
      Deployment d = client.apps().deployments().inNamespace(namespace).withName(name).get();
      if (d == null) {
        throw new IllegalArgumentException("no Deployment " + namespace + "/" + name);
      }
      var spec = d.getSpec().getTemplate().getSpec();
      String container = options.containsKey("container") ? one(options, "container")
          : spec.getContainers().get(0).getName();
      String image = spec.getContainers().stream().filter(c -> c.getName().equals(container)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("no container " + container + " in " + name)).getImage();
      KnownImages.listen(image, listenPorts, rewrites);
      pod = new PodMaterializer(new ApiObjectSource(client), rewrites).materialize(spec, container, namespace,
          name + "-local");
    }
    KnownImages.LocalProcess local = KnownImages.process(pod, Path.of(one(options, "dist")), rewrites, listenPorts);
    ProcessBuilder process = new ProcessBuilder(local.command()).inheritIO();
    if (local.workingDir() != null) {
      process.directory(local.workingDir().toFile());
    }
    // Only the container's environment: the image's, then the pod's over it, as in the container.
    Map<String, String> env = process.environment();
    String path = env.get("PATH");
    env.clear();
    env.putAll(local.imageEnv());
    env.putAll(pod.env());
    env.put("PATH", path);
    if (options.containsKey("java-home")) {
      env.put("JAVA_HOME", one(options, "java-home"));
      env.put("PATH", one(options, "java-home") + "/bin:" + path);
    }
    Process p = process.start();
    Runtime.getRuntime().addShutdownHook(new Thread(p::destroy, "stop-pod"));
    return p.waitFor();
  }

  private static Map<String, List<String>> options(List<String> argv) {
    Map<String, List<String>> options = new java.util.HashMap<>();
    for (int i = 0; i < argv.size(); i += 2) {
      if (!argv.get(i).startsWith("--") || i + 1 == argv.size()) {
        throw new IllegalArgumentException("expected --option value, got " + argv.get(i));
      }
      options.computeIfAbsent(argv.get(i).substring(2), k -> new ArrayList<>()).add(argv.get(i + 1));
    }
    return options;
  }

  private static String one(Map<String, List<String>> options, String name) {
    List<String> values = options.get(name);
    if (values == null || values.size() != 1) {
      throw new IllegalArgumentException("--" + name + " is required once");
    }
    return values.get(0);
  }

  private static String[] pair(String value) {
    int eq = value.indexOf('=');
    if (eq < 0) {
      throw new IllegalArgumentException("expected FROM=TO, got " + value);
    }
    return new String[] {value.substring(0, eq), value.substring(eq + 1)};
  }
}
