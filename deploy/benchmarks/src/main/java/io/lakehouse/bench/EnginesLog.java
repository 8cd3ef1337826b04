package io.lakehouse.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

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
    return LogSummary.of(text, "engines.log during the run: %d WARN, %d ERROR lines%n",
        l -> l.replaceAll("be[35w]-[a-z0-9]{4}(-\\d+)?", "<ns>")
        .replaceAll("[tsmn]?[tsmn]-[a-z0-9]{4}-\\d+", "<name>"));
  }
}
