package io.lakehouse.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

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
    Map<String, Integer> kinds = new TreeMap<>();
    int warn = 0;
    int error = 0;
    for (String line : text.split("\n")) {
      boolean w = line.contains(" WARN ");
      boolean e = line.contains(" ERROR ");
      if (!w && !e) {
        continue;
      }
      warn += w ? 1 : 0;
      error += e ? 1 : 0;
      String shape = line.replaceFirst("^\\S+ \\S+ ", "").replaceAll("p[35]-[a-z0-9]{4}-\\d+", "<name>")
          .replaceAll("bench-p[0-9-]+", "<ns>").replaceAll("\\d+", "N");
      kinds.merge(shape.length() > 200 ? shape.substring(0, 200) + "…" : shape, 1, Integer::sum);
    }
    StringBuilder s = new StringBuilder(Stats.f("catalog.log during %s: %d WARN, %d ERROR lines%n", phase, warn,
        error));
    kinds.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(6)
        .forEach(k -> s.append(Stats.f("- %d× `%s`%n", k.getValue(), k.getKey().replace('`', '\''))));
    return s.toString();
  }
}
