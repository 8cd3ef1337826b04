package io.lakehouse.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/** The WARN and ERROR lines engines-service logged during the run, grouped by shape. */
final class EnginesLog {

  private final Path home;

  EnginesLog(EnginesRun r) {
    this.home = r.home;
  }

  long logSize() {
    try {
      return Files.size(home.resolve("logs/engines.log"));
    } catch (IOException e) {
      return 0;
    }
  }

  String logSummary(long offset) {
    Path file = home.resolve("logs/engines.log");
    String text;
    try (var in = Files.newInputStream(file)) {
      in.skipNBytes(Math.min(offset, Files.size(file)));
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "engines.log not readable: " + e + "\n";
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
      String shape = line.replaceFirst("^\\S+ \\S+ ", "").replaceAll("be[35w]-[a-z0-9]{4}(-\\d+)?", "<ns>")
          .replaceAll("[tsmn]?[tsmn]-[a-z0-9]{4}-\\d+", "<name>").replaceAll("\\d+", "N");
      kinds.merge(shape.length() > 200 ? shape.substring(0, 200) + "…" : shape, 1, Integer::sum);
    }
    StringBuilder s = new StringBuilder(Stats.f("engines.log during the run: %d WARN, %d ERROR lines%n", warn, error));
    kinds.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(6)
        .forEach(k -> s.append(Stats.f("- %d× `%s`%n", k.getValue(), k.getKey().replace('`', '\''))));
    return s.toString();
  }
}
