package io.lakehouse.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a phase's heap went, by class: two {@code jcmd GC.class_histogram} outputs (live objects, after a full
 * collection) of the same JVM, the difference per instance of the phase. Says which objects the P6 figure is made of.
 */
final class ClassHistogram {

  private static final Pattern LINE = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)", Pattern.MULTILINE);
  private static final int SHOWN = 40;

  private record Count(long instances, long bytes) {
  }

  private ClassHistogram() {
  }

  static String take(long pid) {
    return Proc.run(List.of("jcmd", Long.toString(pid), "GC.class_histogram"));
  }

  /** The classes that grew most from {@code before} to {@code after}, per one of {@code n} instances. */
  static String perInstance(String before, String after, int n) {
    Map<String, Count> start = parse(before);
    List<Map.Entry<String, Count>> grown = new ArrayList<>();
    long total = 0;
    for (Map.Entry<String, Count> e : parse(after).entrySet()) {
      Count was = start.getOrDefault(e.getKey(), new Count(0, 0));
      Count delta = new Count(e.getValue().instances() - was.instances(), e.getValue().bytes() - was.bytes());
      total += delta.bytes();
      grown.add(Map.entry(e.getKey(), delta));
    }
    grown.sort((a, b) -> Long.compare(b.getValue().bytes(), a.getValue().bytes()));
    StringBuilder out = new StringBuilder(Stats.f("Heap by class per instance, %d instances: %.0f B in all (shallow"
        + " sizes; a class that shrank counts negative)%n%n%14s %10s  %s%n", n, total / (double) n, "bytes/instance",
        "objects", "class"));
    grown.stream().limit(SHOWN).forEach(e -> out.append(Stats.f("%14.0f %10.1f  %s%n",
        e.getValue().bytes() / (double) n, e.getValue().instances() / (double) n, e.getKey())));
    return out.toString();
  }

  private static Map<String, Count> parse(String histogram) {
    Map<String, Count> counts = new HashMap<>();
    Matcher m = LINE.matcher(histogram);
    while (m.find()) {
      counts.merge(m.group(3), new Count(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))),
          (a, b) -> new Count(a.instances() + b.instances(), a.bytes() + b.bytes()));
    }
    return counts;
  }
}
