package io.lakehouse.common.events;

import io.lakehouse.common.config.ConsumerSettings;
import java.time.Duration;

/** Four tries a few milliseconds apart: a failing handler's whole story within a unit test. */
final class FastRetrySettings implements ConsumerSettings {

    @Override
    public int attempts() {
        return 4;
    }

    @Override
    public Duration initialBackoff() {
        return Duration.ofMillis(5);
    }

    @Override
    public Duration maxBackoff() {
        return Duration.ofMillis(20);
    }
}
