package io.lakehouse.bench;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/** A service log's WARN and ERROR lines, counted, with the six commonest shapes (names and numbers masked). */
final class LogSummary {

  private LogSummary() {
  }

  /** {@code title} is a format taking the WARN and ERROR counts; {@code mask} hides the run's own names. */
  static String of(String text, String title, UnaryOperator<String> mask) {
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
      String shape = mask.apply(line.replaceFirst("^\\S+ \\S+ ", "")).replaceAll("\\d+", "N");
      kinds.merge(shape.length() > 200 ? shape.substring(0, 200) + "…" : shape, 1, Integer::sum);
    }
    StringBuilder s = new StringBuilder(Stats.f(title, warn, error));
    kinds.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(6)
        .forEach(k -> s.append(Stats.f("- %d× `%s`%n", k.getValue(), k.getKey().replace('`', '\''))));
    return s.toString();
  }
}
