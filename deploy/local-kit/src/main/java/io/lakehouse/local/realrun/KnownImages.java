package io.lakehouse.local.realrun;

import java.nio.file.Path;
import java.util.List;

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
  static List<String> command(String image, Path dist, LocalRewrites rewrites) {
    String repository = image.contains(":") ? image.substring(0, image.lastIndexOf(':')) : image;
    return switch (repository) {
      case "trinodb/trino" -> List.of(dist.resolve("bin/launcher").toString(), "run",
          "--etc-dir=" + rewrites.localPath("/etc/trino"));
      default -> throw new IllegalArgumentException("no local process for image " + image
          + ": the images known here are trinodb/trino");
    };
  }
}
