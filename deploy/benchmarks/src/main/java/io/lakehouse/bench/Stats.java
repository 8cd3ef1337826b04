package io.lakehouse.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** Durations of one measurement (nanoseconds), summarized as count, percentiles, max and throughput. */
final class Stats {

  private final String name;
  private final List<Long> nanos = new ArrayList<>();

  Stats(String name) {
    this.name = name;
  }

  synchronized void add(long durationNanos) {
    nanos.add(durationNanos);
  }

  synchronized int count() {
    return nanos.size();
  }

  String name() {
    return name;
  }

  /** Nearest-rank percentile in milliseconds; NaN when empty. */
  synchronized double percentileMs(double p) {
    if (nanos.isEmpty()) {
      return Double.NaN;
    }
    long[] sorted = nanos.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
  }

  double maxMs() {
    return percentileMs(100);
  }

  /**
   * One markdown row: name, count, p50, p90, p99, max, throughput.
   *
   * @param throughput the throughput cell, already formatted (its window differs per measurement)
   */
  String row(String throughput) {
    return String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s |", name, count(), ms(percentileMs(50)),
        ms(percentileMs(90)), ms(percentileMs(99)), ms(maxMs()), throughput);
  }

  static String header() {
    return "| measurement | count | p50 ms | p90 ms | p99 ms | max ms | throughput |\n"
        + "|---|---:|---:|---:|---:|---:|---|";
  }

  /** A table of per-object times (each {@code Stats} named after its object), in the order of their p50. */
  static String objectTable(Collection<Stats> perObject) {
    StringBuilder table = new StringBuilder("| object | p50 | p90 | p99 | max |\n|---|---:|---:|---:|---:|\n");
    perObject.stream().sorted(Comparator.comparingDouble(s -> s.percentileMs(50)))
        .forEach(s -> table.append(f("| `%s` | %s | %s | %s | %s |%n", s.name(), ms(s.percentileMs(50)),
            ms(s.percentileMs(90)), ms(s.percentileMs(99)), ms(s.maxMs()))));
    return table.toString();
  }

  static String ms(double value) {
    if (Double.isNaN(value)) {
      return "–";
    }
    return value >= 100 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.1f", value);
  }

  static String rate(double count, double seconds, String unit) {
    if (seconds <= 0) {
      return "–";
    }
    return String.format(Locale.ROOT, "%.0f %s/s", count / seconds, unit);
  }

  static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
