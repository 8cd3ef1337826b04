package io.lakehouse.local;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Kubernetes writes times as RFC 3339 in UTC with second precision. */
final class Timestamps {

  private Timestamps() {
  }

  static String now() {
    return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
