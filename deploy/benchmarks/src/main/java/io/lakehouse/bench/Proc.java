package io.lakehouse.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What /proc says about this machine and the stack's processes, and jcmd/jstack calls (bounded). */
final class Proc {

  /** USER_HZ: clock ticks per second in /proc/[pid]/stat on Linux. */
  static final double TICKS_PER_SECOND = 100.0;
  private static final Pattern HEAP = Pattern.compile("total (\\d+)K, used (\\d+)K");

  private Proc() {
  }

  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  static Optional<Long> pidFromFile(Path file) {
    String s = read(file).trim();
    if (!s.matches("\\d+") || !Files.exists(Path.of("/proc", s))) {
      return Optional.empty();
    }
    return Optional.of(Long.parseLong(s));
  }

  static String cmdline(long pid) {
    return read(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ').trim();
  }

  /** VmRSS in KiB, or -1. */
  static long rssKb(long pid) {
    for (String line : read(Path.of("/proc", Long.toString(pid), "status")).split("\n")) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }

  /** utime + stime of a process in ticks, or 0 when it is gone. */
  static long cpuTicks(long pid) {
    String stat = read(Path.of("/proc", Long.toString(pid), "stat"));
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return 0;
    }
    String[] f = stat.substring(close + 2).trim().split(" ");
    // f[0] is field 3 (state): utime is field 14, stime field 15
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /** CPU ticks of every process named {@code comm} (PostgreSQL runs one process per connection). */
  static long cpuTicksOfAll(String comm) {
    long sum = 0;
    try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString()
        .matches("\\d+"))) {
      for (Path p : procs) {
        if (read(p.resolve("comm")).trim().equals(comm)) {
          sum += cpuTicks(Long.parseLong(p.getFileName().toString()));
        }
      }
    } catch (IOException e) {
      return sum;
    }
    return sum;
  }

  /**
   * When the process started, in milliseconds since the epoch, or -1: now minus the time since (/proc/uptime minus
   * the process's starttime, both counted from the boot, to 10 ms). Not /proc/stat's btime plus starttime (what
   * {@code ProcessHandle.Info.startInstant} does too): btime is whole seconds, so that sum falls up to 1 s before the
   * true start, by the same fraction for every process of a boot (0.9 s on the machine of 2026-12-07).
   */
  static long startEpochMs(long pid) {
    String stat = read(Path.of("/proc", Long.toString(pid), "stat"));
    int close = stat.lastIndexOf(')');
    String uptime = read(Path.of("/proc/uptime")).trim();
    long now = System.currentTimeMillis();
    if (close < 0 || uptime.isEmpty()) {
      return -1;
    }
    String[] f = stat.substring(close + 2).trim().split(" ");
    // f[0] is field 3 (state): starttime is field 22
    double startedAfterBootMs = Long.parseLong(f[19]) * 1000 / TICKS_PER_SECOND;
    double upMs = Double.parseDouble(uptime.split(" ")[0]) * 1000;
    return now - Math.round(upMs - startedAfterBootMs);
  }

  /** CPU ticks of the stack around a burst: the service, the local Kubernetes API, PostgreSQL, Kafka, this JVM. */
  static long[] stackCpuTicks(Path home, long servicePid, long kubePid) {
    long kafka = pidFromFile(home.resolve("run/kafka.pid")).map(Proc::cpuTicks).orElse(0L);
    return new long[] {cpuTicks(servicePid), cpuTicks(kubePid), cpuTicksOfAll("postgres"), kafka,
        cpuTicks(ProcessHandle.current().pid())};
  }

  /**
   * The markdown table of a burst's window: CPU seconds of each process of {@link #stackCpuTicks} and of the whole
   * machine, with their share of the window.
   */
  static String cpuTable(String service, long[] before, long[] after, long[] machineBefore, long[] machineAfter) {
    double window = (machineAfter[1] - machineBefore[1]) / TICKS_PER_SECOND;
    String[] who = {service, "local Kubernetes API (mock + simulator)", "PostgreSQL (all backends)", "Kafka",
        "benchmark client"};
    StringBuilder cpu = new StringBuilder("| process | CPU s | share of the 2-core window |\n|---|---:|---:|\n");
    for (int k = 0; k < who.length; k++) {
      double s = (after[k] - before[k]) / TICKS_PER_SECOND;
      cpu.append(Stats.f("| %s | %.1f | %.0f %% |%n", who[k], s, 100 * s / Math.max(0.01, window)));
    }
    double busy = (machineAfter[0] - machineBefore[0]) / TICKS_PER_SECOND;
    cpu.append(Stats.f("| whole machine (incl. other engineers' builds) | %.1f | %.0f %% |%n", busy,
        100 * busy / Math.max(0.01, window)));
    return cpu.toString();
  }

  /** {busy, total} ticks of the whole machine from /proc/stat. */
  static long[] machineTicks() {
    String first = read(Path.of("/proc/stat")).split("\n")[0];
    String[] f = first.trim().split("\\s+");
    long total = 0;
    for (int i = 1; i < f.length && i <= 8; i++) {
      total += Long.parseLong(f[i]);
    }
    long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
    return new long[] {total - idle, total};
  }

  static String loadAverage() {
    String[] f = read(Path.of("/proc/loadavg")).trim().split(" ");
    return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : "?";
  }

  static String cpuModel() {
    for (String line : read(Path.of("/proc/cpuinfo")).split("\n")) {
      if (line.startsWith("model name")) {
        return line.substring(line.indexOf(':') + 1).trim();
      }
    }
    return "unknown";
  }

  static String memTotal() {
    for (String line : read(Path.of("/proc/meminfo")).split("\n")) {
      if (line.startsWith("MemTotal:")) {
        long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
        return Stats.f("%.1f GiB", kb / 1024.0 / 1024.0);
      }
    }
    return "unknown";
  }

  /** The output of {@code command} (stdout and stderr), within 60 s; "?" on failure. */
  static String run(List<String> command) {
    return run(command, 60);
  }

  /** The output of {@code command} (stdout and stderr), within {@code seconds}; "?" on failure. */
  static String run(List<String> command, int seconds) {
    Path out = null;
    try {
      // Through a file: a pipe would block a large output (jstack, class histogram) until the timeout.
      out = Files.createTempFile("bench-", ".out");
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return "?";
      }
      return Files.readString(out, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return "?";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "?";
    } finally {
      if (out != null) {
        try {
          Files.deleteIfExists(out);
        } catch (IOException e) {
          // a temp file left behind
        }
      }
    }
  }

  /** The version line of the PostgreSQL server listening on {@code port} (from its binary), or "unknown". */
  static String postgresVersion(int port) {
    try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString()
        .matches("\\d+"))) {
      for (Path p : procs) {
        String[] argv = read(p.resolve("cmdline")).split("\0");
        if (argv.length > 0 && argv[0].endsWith("/postgres") && String.join(" ", argv).contains("-p " + port)) {
          return run(List.of(argv[0], "--version")).replace("postgres (PostgreSQL) ", "");
        }
      }
    } catch (IOException e) {
      return "unknown";
    }
    return "unknown (not a local process)";
  }

  /**
   * The full collections {@link #heapUsedAfterGcKb} runs: the serial collector's {@code MarkSweepAlwaysCompactCount}
   * (4), so that one of them compacts the whole old generation whatever the others leave in place.
   */
  static final int FULL_GCS = 4;

  /**
   * The live heap of {@code pid} in KiB (-1 if jcmd is missing or failed): the least heap in use after each of
   * {@link #FULL_GCS} full collections, one after the other. One full collection is not enough: the serial collector
   * leaves dead objects in place (as filler {@code int[]}) where compacting would move little, up to
   * {@code MarkSweepDeadRatio} (5 %) of the old generation, and only every fourth full collection compacts it whole;
   * two collections in a row may leave the same. A GC log of P6 showed one collection at 80 MiB and the next, a moment
   * later, at 75 MiB, which moved P6's heap per catalog by 10 KiB; after the short benchmark's warm-up, four in a row
   * left 35.9, 35.8, 35.8 and 33.0 MiB.
   */
  static long heapUsedAfterGcKb(long pid) {
    long least = -1;
    for (int i = 0; i < FULL_GCS; i++) {
      run(List.of("jcmd", Long.toString(pid), "GC.run"));
      least = leastHeap(least, heapUsedKb(run(List.of("jcmd", Long.toString(pid), "GC.heap_info"))));
    }
    return least;
  }

  /** The lesser of two readings of the heap in use, -1 (no reading) counting as none. */
  static long leastHeap(long a, long b) {
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  }

  /**
   * The heap in use according to {@code jcmd GC.heap_info}: the sum over its generations (-1 without any). G1 prints
   * one line for the whole heap; the serial collector the services run with prints the young generation first and the
   * tenured one after: reading only the first line measured the young generation, empty after a full GC, and gave a
   * heap per instance of about zero whatever the size (P6's "-0.2 KiB per catalog" over 1,800 catalogs).
   */
  static long heapUsedKb(String heapInfo) {
    Matcher m = HEAP.matcher(heapInfo);
    long used = -1;
    while (m.find()) {
      used = Math.max(used, 0) + Long.parseLong(m.group(2));
    }
    return used;
  }

  /**
   * The young and full collections {@code pid} has run so far ({@code jstat -gc}: YGC, FGC), or {-1, -1}: a full
   * collection during P1 is the read tail, whatever the machine.
   */
  static long[] gcCounts(long pid) {
    String[] lines = run(List.of("jstat", "-gc", Long.toString(pid))).split("\n");
    if (lines.length < 2) {
      return new long[] {-1, -1};
    }
    List<String> names = List.of(lines[0].trim().split("\\s+"));
    String[] values = lines[1].trim().split("\\s+");
    int young = names.indexOf("YGC");
    int full = names.indexOf("FGC");
    if (young < 0 || full < 0 || values.length != names.size()) {
      return new long[] {-1, -1};
    }
    return new long[] {Long.parseLong(values[young]), Long.parseLong(values[full])};
  }

  static void threadDump(long pid, Path file) {
    try {
      Files.writeString(file, run(List.of("jstack", Long.toString(pid))));
    } catch (IOException e) {
      // a missing dump is not worth failing a run over
    }
  }
}
