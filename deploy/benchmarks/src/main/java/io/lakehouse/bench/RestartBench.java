package io.lakehouse.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * P8, cold restart of one service with the run's instances in place and nothing changed: SIGTERM, then
 * {@code deploy/local/lakehouse up} starts it again. From the new process's start (/proc): caches synced (its log's
 * "reconcile loop started" line, written once the informer caches have synced; services without a reconcile loop
 * have none), API ready (/q/health/ready answers 200); and the Kubernetes API calls from the stop until
 * {@code --p8-settle-seconds} (10) after ready: mutating ones must be 0.
 */
final class RestartBench {

  private static final String SYNCED = "reconcile loop started";
  /**
   * The longest wait per service ({@code --p8-timeout-seconds}): five restarts must fit the 15 minutes of
   * {@code run --all}, and the bar asks for caches synced within 15 s; a service not synced after 90 s has failed.
   */
  private static final int TIMEOUT_SECONDS = 90;

  private final AllRun r;
  private final LocalStack stack;

  RestartBench(AllRun r, LocalStack stack) {
    this.r = r;
    this.stack = stack;
  }

  void measure(String service, String instances) throws Exception {
    Api api = r.api(service);
    Costs calls = new Costs(r.kubeUrl, r.pgPort, service, r.pid(service));
    Path log = r.home.resolve("logs/" + service + ".log");
    long logOffset = size(log);
    // A service whose earlier start logged the line has a reconcile loop: wait for its line again (it may come after
    // ready: leadership is taken after start-up).
    boolean hasLoop = loggedSince(log, 0);
    Map<String, Double> before = calls.serviceCalls();
    long oldPid = r.pid(service);
    BenchCli.log("all", "P8: restarting %s-service (pid %d)", service, oldPid);
    LocalStack.stop(oldPid);
    CompletableFuture<Void> up = CompletableFuture.runAsync(stack::up);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(r.opt("p8-timeout-seconds", TIMEOUT_SECONDS));
    long newPid = -1;
    long started = -1;
    long readyMs = -1;
    long syncedMs = -1;
    while (System.nanoTime() < deadline && (readyMs < 0 || (syncedMs < 0 && hasLoop))) {
      if (newPid < 0 && r.pid(service) > 0 && r.pid(service) != oldPid) {
        newPid = r.pid(service);
        // Read now: a process that dies later (a full heap) has no start time left to read.
        started = Proc.startEpochMs(newPid);
      }
      if (newPid > 0 && syncedMs < 0 && loggedSince(log, logOffset)) {
        syncedMs = System.currentTimeMillis();
      }
      if (newPid > 0 && readyMs < 0 && api.healthy()) {
        readyMs = System.currentTimeMillis();
      }
      Thread.sleep(20);
    }
    up.get(r.opt("p8-timeout-seconds", TIMEOUT_SECONDS), TimeUnit.SECONDS);
    if (readyMs < 0) {
      throw new IllegalStateException(service + "-service was not ready again within the P8 timeout"
          + " (--p8-timeout-seconds)");
    }
    Thread.sleep(r.opt("p8-settle-seconds", 10) * 1000L);
    Map<String, Double> after = calls.serviceCalls();
    double mutating = IdleBench.MUTATING.stream().mapToDouble(v -> IdleBench.delta(after, before, v)).sum();
    r.row("P8", service, "cold restart (" + instances + "): process start → caches synced", "≤ 15 s",
        !hasLoop ? "– (no reconcile loop)" : syncedMs < 0 ? "not within the P8 timeout"
            : Stats.f("%.1f s", (syncedMs - started) / 1000.0), !hasLoop ? null : syncedMs > 0
            && syncedMs - started <= 15_000, true);
    r.row("P8", service, "cold restart: process start → API ready (/q/health/ready 200)", "≤ 3 s",
        Stats.f("%.1f s", (readyMs - started) / 1000.0), readyMs - started <= 3_000, true);
    r.row("P8", service, "cold restart: mutating API calls, stop → ready + settle", "0",
        Stats.f("%.0f (%s)", mutating, IdleBench.verbs(after, before)), mutating == 0, false);
  }

  private static long size(Path log) {
    try {
      return Files.size(log);
    } catch (IOException e) {
      return 0;
    }
  }

  /** Whether the log has the "caches synced" line after {@code offset} (the new process appends to the same file). */
  private static boolean loggedSince(Path log, long offset) {
    try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
      long length = file.length();
      if (length <= offset) {
        return false;
      }
      byte[] tail = new byte[(int) Math.min(length - offset, 16 << 20)];
      file.seek(offset);
      file.readFully(tail);
      return new String(tail, StandardCharsets.UTF_8).contains(SYNCED);
    } catch (IOException e) {
      return false;
    }
  }
}
