package io.lakehouse.common.outbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The fault suite's way to kill the outbox relay between Kafka's acknowledgement and the marking of the
 * rows (see {@code lakehouse.service.outbox.halt-after-ack-file}): a {@code kill -9} lands there only by
 * chance. Armed by creating the file, disarmed by the crash itself (the file is deleted first, so the
 * restarted service publishes normally).
 */
final class RelayCrashHook {

    private static final Logger LOG = Logger.getLogger(RelayCrashHook.class);

    private RelayCrashHook() {}

    static void haltIfArmed(Optional<String> file, int acknowledged) {
        if (firesFor(file, acknowledged)) {
            LOG.warnf("halting after Kafka acknowledged a batch of %d, before marking it (fault injection)", acknowledged);
            Runtime.getRuntime().halt(137);
        }
    }

    /**
     * Whether this batch is the one to crash on, disarming the hook if so: only a batch with rows Kafka acknowledged.
     * A pass that found nothing (the sweep, a second NOTIFY of rows the first one took) leaves it armed: halting there
     * would crash with nothing acknowledged, possibly before the awaited row was even committed.
     */
    static boolean firesFor(Optional<String> file, int acknowledged) {
        if (file.isEmpty() || acknowledged == 0) {
            return false;
        }
        try {
            return Files.deleteIfExists(Path.of(file.get()));
        } catch (IOException e) {
            LOG.warnf("the relay crash hook could not read %s: %s", file.get(), e.getMessage());
            return false;
        }
    }
}
