package io.lakehouse.common.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelayCrashHookTest {

    @TempDir
    Path dir;

    @Test
    void anArmedHookWaitsForABatchWithAcknowledgedRowsAndDisarmsOnIt() throws Exception {
        Path file = Files.createFile(dir.resolve("halt-relay-after-ack"));
        Optional<String> armed = Optional.of(file.toString());

        // the sweep's empty pass (the fault suite's relay-crash failed when the hook fired there)
        assertThat(RelayCrashHook.firesFor(armed, 0)).isFalse();
        assertThat(file).exists();

        assertThat(RelayCrashHook.firesFor(armed, 3)).isTrue();
        assertThat(file).doesNotExist();
        assertThat(RelayCrashHook.firesFor(armed, 3)).as("disarmed by the crash").isFalse();
    }

    @Test
    void withoutTheFileOrTheSettingNothingFires() {
        assertThat(RelayCrashHook.firesFor(Optional.of(dir.resolve("absent").toString()), 5)).isFalse();
        assertThat(RelayCrashHook.firesFor(Optional.empty(), 5)).isFalse();
    }
}
