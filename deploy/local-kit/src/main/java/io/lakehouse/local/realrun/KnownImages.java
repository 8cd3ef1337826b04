package io.lakehouse.local.realrun;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The images that can run here as a local process, and the command that stands in for each one's entrypoint
 * (from the distribution Maven Central serves, unpacked in {@code dist}).
 */
final class KnownImages {

  private KnownImages() {
  }

  /**
   * trinodb/trino: the image's {@code run-trino} is {@code launcher run --etc-dir /etc/trino}; the server tarball
   * ({@code io.trino:trino-server}) has the same launcher.
   */
  static List<String> command(String image, Path dist, LocalRewrites rewrites, Map<Integer, Integer> listenPorts) {
    String repository = image.contains(":") ? image.substring(0, image.lastIndexOf(':')) : image;
    return switch (repository) {
      case "trinodb/trino" -> trino(dist, rewrites, listenPorts);
      default -> throw new IllegalArgumentException("no local process for image " + image
          + ": the images known here are trinodb/trino");
    };
  }

  /**
   * A container port served locally on another port (two pods of one machine cannot both listen on 8080) is the
   * HTTP or HTTPS port property, set as a system property, which Trino's configuration takes over its files.
   */
  private static List<String> trino(Path dist, LocalRewrites rewrites, Map<Integer, Integer> listenPorts) {
    List<String> command = new ArrayList<>(List.of(dist.resolve("bin/launcher").toString(), "run",
        "--etc-dir=" + rewrites.localPath("/etc/trino")));
    listenPorts.forEach((container, local) -> command.add(switch (container) {
      case 8080 -> "-Dhttp-server.http.port=" + local;
      case 8443 -> "-Dhttp-server.https.port=" + local;
      default -> throw new IllegalArgumentException("trino listens on 8080 and 8443, not " + container);
    }));
    return command;
  }
}
