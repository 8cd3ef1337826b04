package io.lakehouse.bench;

import java.nio.file.Files;
import java.util.Map;

/**
 * P6, growth, on catalog-service: a burst of {@code --p6-burst} catalogs (100) timed until all Ready at the size
 * reached so far, then {@code --p6-fill} more (1,200: enough for the heap per catalog to stand out of the noise,
 * {@link #MIN_FILL}) created and converged, then the same burst again: the throughput at the larger size against the
 * smaller (≥ 80 %), and what each of the fill's catalogs cost ({@link Costs}: heap bytes after full GCs, Kubernetes
 * API calls by verb, events, SQL work; plus the service's CPU ms): ≤ 15 KB of heap.
 * The heap per catalog by class goes to {@code p6-heap-by-class.txt} in the run's raw data ({@link ClassHistogram}).
 * The quality bar's sizes (1,000 and 10,000) are {@code --p6-fill 9000 --p6-burst 1000} after a first 1,000.
 */
final class GrowthBench {

  /** PostgreSQL backends publish their table statistics when idle, within PGSTAT_IDLE_INTERVAL (10 s). */
  private static final long STATS_SETTLE_MS = 11_000;

  /** The bar's P6 target per instance. */
  private static final double TARGET_BYTES = 15_000;
  private static final double MIB = 1 << 20;
  /** The swing of the heap after a full GC between two snapshots of an idle service (see {@link #heapVerdict}). */
  static final double HEAP_NOISE_BYTES = 8 * MIB;
  /** The smallest fill whose heap at the target is twice the noise. */
  static final int MIN_FILL = (int) Math.ceil(2 * HEAP_NOISE_BYTES / TARGET_BYTES);

  private final AllRun r;

  GrowthBench(AllRun r) {
    this.r = r;
  }

  /** The costs per catalog of the fill, for the table of counts. */
  Map<String, Double> measure(int readyTimeoutSeconds) throws Exception {
    int burst = r.opt("p6-burst", 100);
    int fill = r.opt("p6-fill", 1200);
    long pid = r.pid("catalog");
    Costs costs = new Costs(r.kubeUrl, r.pgPort, "catalog", pid);
    r.awaitCatalogsReady(readyTimeoutSeconds);
    double small = burstRate(burst, readyTimeoutSeconds);
    int sizeSmall = r.catalogCount();
    Thread.sleep(STATS_SETTLE_MS);
    Costs.Snapshot before = costs.snapshot();
    String histogramBefore = ClassHistogram.take(pid); // after the snapshot's collections: the same live heap
    long cpuBefore = Proc.cpuTicks(pid);
    BenchCli.log("all", "P6: %d more catalogs (the fill) after %d", fill, r.catalogCount());
    Loops.parallel(fill, r.opt("sat-threads", 8), i -> r.createCatalog());
    r.awaitCatalogsReady(readyTimeoutSeconds);
    Thread.sleep(STATS_SETTLE_MS);
    long cpuAfter = Proc.cpuTicks(pid);
    Costs.Snapshot after = costs.snapshot();
    Files.writeString(r.work.resolve("p6-heap-by-class.txt"),
        ClassHistogram.perInstance(histogramBefore, ClassHistogram.take(pid), fill));
    Map<String, Double> perInstance = after.perInstance(before, fill);
    perInstance.put("cpu_ms", (cpuAfter - cpuBefore) * 1000 / Proc.TICKS_PER_SECOND / fill);
    double large = burstRate(burst, readyTimeoutSeconds);
    int sizeLarge = r.catalogCount();
    double heap = perInstance.getOrDefault("heap_bytes", -1.0);
    boolean meaningful = heapVerdict(heap, fill);
    r.row("P6", "catalog", Stats.f("heap per catalog after a full GC, %d → %d catalogs", sizeSmall - burst,
        sizeSmall + fill), "≤ 15 KB", Stats.f("%.1f KiB%s", heap / 1024, meaningful ? ""
            : Stats.f(" (noise, not a verdict: Δ %.1f MiB over %d catalogs; --p6-fill ≥ %d)", heap * fill / MIB,
                fill, MIN_FILL)), meaningful ? heap <= TARGET_BYTES : null, false);
    r.row("P6", "catalog", Stats.f("burst of %d until Ready at %d vs at %d catalogs", burst, sizeLarge - burst,
        sizeSmall - burst), "≥ 80 %", Stats.f("%.0f %% (%.1f vs %.1f catalogs/s)", 100 * large / small, large, small),
        large >= 0.8 * small, true);
    return perInstance;
  }

  /**
   * Whether the heap per catalog can be told from the noise: the heap after a full GC moves by a few MiB between two
   * snapshots whatever the service does (buffers, lazily filled caches, JIT); a fill of {@link #MIN_FILL} catalogs at
   * the target makes twice {@link #HEAP_NOISE_BYTES}. A negative figure is noise at any size.
   */
  static boolean heapVerdict(double heapPerCatalog, int fill) {
    return fill >= MIN_FILL && heapPerCatalog >= 0 && heapPerCatalog * fill >= HEAP_NOISE_BYTES;
  }

  /** Creates {@code n} catalogs at once and waits until every catalog is Ready: catalogs per second. */
  private double burstRate(int n, int readyTimeoutSeconds) throws Exception {
    BenchCli.log("all", "P6: a burst of %d catalogs at %d", n, r.catalogCount());
    long t0 = System.nanoTime();
    Loops.parallel(n, r.opt("sat-threads", 8), i -> r.createCatalog());
    r.awaitCatalogsReady(readyTimeoutSeconds);
    return n / ((System.nanoTime() - t0) / 1e9);
  }
}
