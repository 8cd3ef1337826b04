package io.lakehouse.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What the bar's table says, where the verdict depends on the machine or on the run's size: the stack's own load does
 * not make a figure provisional, other work does; a heap per catalog within the noise is no verdict.
 */
class VerdictsTest {

  private static final double CORES = 2;

  @Test
  void theStacksOwnLoadOnAnIdleMachineLeavesTheVerdict() {
    BarRow p1 = new BarRow("P1", "catalog", "p99", "≤ 50 ms", "28 ms", true, true, "7.90");
    assertThat(p1.markdown(CORES, 0.40)).contains("| met |").doesNotContain("not a verdict");
  }

  @Test
  void otherWorkBeforeTheStackStartedMakesAWallClockVerdictProvisional() {
    BarRow p1 = new BarRow("P1", "catalog", "p99", "≤ 50 ms", "90 ms", false, true, "7.90");
    assertThat(p1.markdown(CORES, 6.5)).contains("**missed** (under load: not a verdict)");
    BarRow p7 = new BarRow("P7", "all", "mutating calls", "0", "0", true, false, "7.90");
    assertThat(p7.markdown(CORES, 6.5)).as("a count is a verdict whatever the load").contains("| met |")
        .doesNotContain("not a verdict");
  }

  @Test
  void withoutTheLoadBeforeTheStackTheRowsOwnLoadDecides() {
    BarRow p1 = new BarRow("P1", "catalog", "p99", "≤ 50 ms", "28 ms", true, true, "7.90");
    assertThat(p1.markdown(CORES, -1)).contains("met (under load: not a verdict)");
  }

  @Test
  void aHeapPerCatalogWithinTheNoiseIsNoVerdict() {
    assertThat(GrowthBench.heapVerdict(-300, 600)).as("negative: noise").isFalse();
    assertThat(GrowthBench.heapVerdict(75_000, 600)).as("a fill too small to show the target").isFalse();
    assertThat(GrowthBench.heapVerdict(2_000, 5_000)).as("Δ 9.5 MiB: barely above the noise").isTrue();
    assertThat(GrowthBench.heapVerdict(1_000, 5_000)).as("Δ 4.8 MiB: within the noise").isFalse();
    assertThat(GrowthBench.heapVerdict(75_000, GrowthBench.MIN_FILL)).isTrue();
  }

  @Test
  void theHeapInUseIsEveryGenerationsNotTheFirstOnes() {
    String serial = """
         def new generation   total 22144K, used 5441K [0x00000000f0000000, 0x00000000f1800000, 0x00000000f1800000)
          eden space 19712K,  25% used [0x00000000f0000000, 0x00000000f04d0c10, 0x00000000f1340000)
         tenured generation   total 171832K, used 107093K [0x00000000f1800000, 0x00000000fbfce000, 0x0000000100000000)
         Metaspace       used 91351K, committed 92544K, reserved 1179648K
          class space    used 10552K, committed 11392K, reserved 1048576K
        """;
    assertThat(Proc.heapUsedKb(serial)).isEqualTo(5441 + 107093);
    String g1 = """
         garbage-first heap   total 262144K, used 98765K [0x00000000f0000000, 0x0000000100000000)
          region size 1024K, 3 young (3072K), 0 survivors (0K)
         Metaspace       used 91351K, committed 92544K, reserved 1179648K
        """;
    assertThat(Proc.heapUsedKb(g1)).isEqualTo(98765);
    assertThat(Proc.heapUsedKb("jcmd: no such process")).isEqualTo(-1);
  }

  @Test
  void theLiveHeapIsTheLeastReadingOfTheFullCollectionsInARow() {
    assertThat(Proc.leastHeap(-1, 80_000)).as("the first reading").isEqualTo(80_000);
    assertThat(Proc.leastHeap(80_000, 75_000)).as("a later collection compacted more").isEqualTo(75_000);
    assertThat(Proc.leastHeap(75_000, 75_100)).as("dead objects left in place again").isEqualTo(75_000);
    assertThat(Proc.leastHeap(75_000, -1)).as("jcmd failed once").isEqualTo(75_000);
    assertThat(Proc.FULL_GCS).as("one of them compacts whole (MarkSweepAlwaysCompactCount)").isGreaterThanOrEqualTo(4);
  }
}
