package io.lakehouse.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What /proc says about a process the test starts itself. */
class ProcTest {

  /** /proc's clocks count in 10 ms ticks; a little more for the time between the fork and the reads. */
  private static final long TICKS_AND_READS_MS = 30;

  @Test
  void aProcessStartsWhenItWasStartedNotUpToASecondBefore() throws Exception {
    long before = System.currentTimeMillis();
    Process sleep = new ProcessBuilder("sleep", "5").start();
    long after = System.currentTimeMillis();
    try {
      long started = Proc.startEpochMs(sleep.pid());
      assertThat(started).isBetween(before - TICKS_AND_READS_MS, after + TICKS_AND_READS_MS);
    } finally {
      sleep.destroy();
    }
  }
}
