package io.lakehouse.local.realrun;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The images that can run here as a local process, and what stands in for each one (from what Maven Central serves,
 * unpacked in {@code dist}): its entrypoint, its own environment (the image's {@code ENV}) and working directory.
 */
final class KnownImages {

  /** Spark Connect's gRPC port: the generated spark-defaults.conf's {@code spark.connect.grpc.binding.port}. */
  static final int SPARK_CONNECT_PORT = 15002;
  static final String SPARK_CONNECT_PORT_PROPERTY = "spark.connect.grpc.binding.port";
  private static final String KNOWN = "trinodb/trino, apache/spark, lakehouse/spark-iceberg";

  private KnownImages() {
  }

  /**
   * Before the pod's files are written: the rewrites an image needs for its listen ports (a container port served
   * locally on another one, since two pods of one machine cannot listen on the same port). Fails for an image that
   * cannot run here.
   */
  static void listen(String image, Map<Integer, Integer> listenPorts, LocalRewrites rewrites) {
    switch (repository(image)) {
      case "trinodb/trino" -> { } // on the command line, see trino()
      // lakehouse/spark-iceberg (deploy/images/spark-iceberg) is apache/spark with the Iceberg jars in jars/.
      case "apache/spark", "lakehouse/spark-iceberg" -> listenPorts.forEach((container, local) -> {
        if (container != SPARK_CONNECT_PORT) {
          throw new IllegalArgumentException("spark-connect listens on " + SPARK_CONNECT_PORT + ", not " + container);
        }
        // Set in spark-defaults.conf, which takes precedence over system properties: rewritten there.
        rewrites.property(SPARK_CONNECT_PORT_PROPERTY, String.valueOf(local));
      });
      default -> throw unknown(image);
    }
  }

  /** The process that runs the pod's container here. */
  static LocalProcess process(LocalPod pod, Path dist, LocalRewrites rewrites, Map<Integer, Integer> listenPorts) {
    return switch (repository(pod.image())) {
      case "trinodb/trino" -> new LocalProcess(trino(dist, rewrites, listenPorts, pod.args()), Map.of(), null);
      case "apache/spark", "lakehouse/spark-iceberg" -> spark(pod, dist, rewrites);
      default -> throw unknown(pod.image());
    };
  }

  /**
   * trinodb/trino: the image's {@code run-trino} is {@code launcher run --etc-dir /etc/trino}; the server tarball
   * ({@code io.trino:trino-server}) has the same launcher. A listen port is the HTTP or HTTPS port property, set as a
   * system property, which Trino's configuration takes over its files.
   */
  private static List<String> trino(Path dist, LocalRewrites rewrites, Map<Integer, Integer> listenPorts,
      List<String> args) {
    List<String> command = new ArrayList<>(List.of(dist.resolve("bin/launcher").toString(), "run",
        "--etc-dir=" + rewrites.localPath("/etc/trino")));
    listenPorts.forEach((container, local) -> command.add(switch (container) {
      case 8080 -> "-Dhttp-server.http.port=" + local;
      case 8443 -> "-Dhttp-server.https.port=" + local;
      default -> throw new IllegalArgumentException("trino listens on 8080 and 8443, not " + container);
    }));
    command.addAll(args);
    return command;
  }

  /**
   * apache/spark: the pod's own command (it replaces the image's entrypoint) with the image's {@code SPARK_HOME}
   * ({@code /opt/spark}) being {@code dist}, a folder laid out like the distribution: the jars Maven Central serves
   * in {@code jars/}, stand-ins for its {@code bin/} scripts. The image's working directory is
   * {@code /opt/spark/work-dir}.
   */
  private static LocalProcess spark(LocalPod pod, Path dist, LocalRewrites rewrites) {
    if (pod.command().isEmpty()) {
      throw new IllegalArgumentException("apache/spark runs here with the pod's command only (no entrypoint stand-in)");
    }
    List<String> command = new ArrayList<>(pod.command());
    command.addAll(pod.args());
    return new LocalProcess(command, Map.of("SPARK_HOME", dist.toString()),
        rewrites.localPath("/opt/spark/work-dir"));
  }

  private static String repository(String image) {
    return image.contains(":") ? image.substring(0, image.lastIndexOf(':')) : image;
  }

  private static IllegalArgumentException unknown(String image) {
    return new IllegalArgumentException("no local process for image " + image + ": the images known here are "
        + KNOWN);
  }

  /**
   * A command run here for a container.
   *
   * @param imageEnv the image's own environment, under the pod's
   * @param workingDir the image's working directory, locally ({@code null}: any)
   */
  record LocalProcess(List<String> command, Map<String, String> imageEnv, Path workingDir) {
  }
}
