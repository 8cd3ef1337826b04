package io.lakehouse.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The WARN and ERROR lines catalog-service logged during a phase of the benchmark, grouped by shape. */
final class CatalogLog {

  private CatalogLog() {
  }

  /** The lines of {@code logs/catalog.log} after byte {@code offset}, counted, with the six commonest shapes. */
  static String summary(Path home, long offset, String phase) throws IOException {
    Path file = home.resolve("logs/catalog.log");
    String text;
    try (var in = Files.newInputStream(file)) {
      in.skipNBytes(Math.min(offset, Files.size(file)));
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    return LogSummary.of(text, "catalog.log during " + phase + ": %d WARN, %d ERROR lines%n",
        l -> l.replaceAll("p[35]-[a-z0-9]{4}-\\d+", "<name>").replaceAll("bench-p[0-9-]+", "<ns>"));
  }
}
