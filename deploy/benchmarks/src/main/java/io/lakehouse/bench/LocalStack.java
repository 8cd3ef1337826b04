package io.lakehouse.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * The local stack's own commands (deploy/local), for the figures that stop or restart a part of it: Kafka (P10) and a
 * service (P8). They run with this process's environment: the run script exports LAKEHOUSE_HOME, the ports and
 * LAKEHOUSE_SERVICES, so the commands act on the stack the run started and on nothing else.
 */
final class LocalStack {

  private final Path repo;

  LocalStack(Path repo) {
    this.repo = repo;
  }

  void kafkaDown() {
    lib("kafka_down");
  }

  void kafkaUp() {
    lib("kafka_up");
  }

  /** {@code deploy/local/lakehouse up}: starts what is missing (a stopped service), reuses the rest. */
  void up() {
    String out = Proc.run(List.of("bash", "-c", "'" + repo.resolve("deploy/local/lakehouse") + "' up 2>&1 | tail -5"), 300);
    BenchCli.log("all", "lakehouse up: %s", out.replace('\n', ' '));
  }

  /**
   * Sends SIGTERM to {@code pid} and waits (bounded, 90 s) until it is gone: a service's first run of a new jar writes
   * its AppCDS archive as it exits (deploy/local/lib/cds.sh), 5-30 s on a loaded machine on top of its 7-14 s stop.
   */
  static void stop(long pid) throws InterruptedException {
    Proc.run(List.of("kill", "-TERM", Long.toString(pid)));
    long deadline = System.nanoTime() + 90_000_000_000L;
    while (java.nio.file.Files.exists(Path.of("/proc", Long.toString(pid)))) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("process " + pid + " still runs 90 s after SIGTERM");
      }
      Thread.sleep(50);
    }
  }

  private void lib(String function) {
    String lib = repo.resolve("deploy/local/lib").toString();
    String out = Proc.run(List.of("bash", "-c", "set -euo pipefail; REPO_ROOT='" + repo + "'; source '" + lib
        + "/common.sh'; source '" + lib + "/postgres.sh'; source '" + lib + "/kafka.sh'; " + function + " 2>&1"), 300);
    BenchCli.log("all", "%s: %s", function, out.replace('\n', ' '));
  }
}
