package io.lakehouse.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The wall-clock time at which a stopped broker accepts connections again, polled every 10 ms from {@link #watch}
 * on. Why: the relay hands records to its producer during the outage, which keeps them up to its delivery timeout
 * and sends them when the broker is back; their timestamps are from the outage, so a drain timed from them would
 * count part of the outage as the relay's work (P10's slow mode, docs/benchmarks.md "The test bed's JIT").
 */
final class BrokerReturn {

  private final CompletableFuture<Long> acceptedAtMs;

  private BrokerReturn(CompletableFuture<Long> acceptedAtMs) {
    this.acceptedAtMs = acceptedAtMs;
  }

  /** Starts polling {@code bootstrap} ({@code host:port}) on a daemon thread. */
  static BrokerReturn watch(String bootstrap) {
    int colon = bootstrap.lastIndexOf(':');
    InetSocketAddress address = new InetSocketAddress(bootstrap.substring(0, colon),
        Integer.parseInt(bootstrap.substring(colon + 1)));
    CompletableFuture<Long> accepted = new CompletableFuture<>();
    Thread poller = new Thread(() -> {
      while (!accepted.isDone()) {
        try (Socket socket = new Socket()) {
          socket.connect(address, 100);
          accepted.complete(System.currentTimeMillis());
        } catch (IOException refused) {
          Loops.sleepUntil(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10));
        }
      }
    }, "broker-return");
    poller.setDaemon(true);
    poller.start();
    return new BrokerReturn(accepted);
  }

  /** When the broker first accepted a connection; empty when it has not (yet). */
  OptionalLong acceptedAtMs() {
    Long at = acceptedAtMs.getNow(null);
    return at == null ? OptionalLong.empty() : OptionalLong.of(at);
  }
}
