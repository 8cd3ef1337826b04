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

    static void haltIfArmed(Optional<String> file) {
        if (file.isEmpty()) {
            return;
        }
        try {
            if (Files.deleteIfExists(Path.of(file.get()))) {
                LOG.warn("halting after Kafka acknowledged the batch, before marking it (fault injection)");
                Runtime.getRuntime().halt(137);
            }
        } catch (IOException e) {
            LOG.warnf("the relay crash hook could not read %s: %s", file.get(), e.getMessage());
        }
    }
}
