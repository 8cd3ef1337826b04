package io.lakehouse.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When a port that refused connections accepts them again, as P10's window needs it. */
class BrokerReturnTest {

  /** The poll interval, the connect and a loaded machine's scheduler. */
  private static final long POLL_SLACK_MS = 1_000;

  @Test
  void noReturnWhileRefusedThenTheMomentItAccepts() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    BrokerReturn broker = BrokerReturn.watch("127.0.0.1:" + port);
    Thread.sleep(300);
    assertThat(broker.acceptedAtMs()).isEmpty();

    long opened = System.currentTimeMillis();
    try (ServerSocket back = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (broker.acceptedAtMs().isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(broker.acceptedAtMs()).isPresent();
      assertThat(broker.acceptedAtMs().getAsLong()).isBetween(opened, opened + POLL_SLACK_MS);
    }
  }
}
