package io.lakehouse.chart;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local stack's secrets key (deploy/local/lib/services.sh): the e2e checks start every service at once on a fresh
 * home, and each service must get the same whole key (an empty one stopped the catalog in CI; two keys would leave
 * data encrypted with a key that is lost).
 */
class LocalStackSecretsKeyTest {

    private static final int SERVICES = 10;

    @TempDir
    Path root;

    @RepeatedTest(3)
    void servicesStartingAtOnceOnAFreshHomeAllReadTheSameKey() throws Exception {
        Files.createDirectories(root.resolve(".local/keys"));
        List<Process> starts = new ArrayList<>();
        for (int i = 0; i < SERVICES; i++) {
            starts.add(LocalLib.start(root, "", "secrets_key"));
        }
        Set<String> keys = new HashSet<>();
        for (Process p : starts) {
            keys.add(LocalLib.output(p));
        }

        assertThat(keys).hasSize(1);
        assertThat(Base64.getDecoder().decode(keys.iterator().next())).hasSize(32);
        Path file = root.resolve(".local/secrets.key");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        try (Stream<Path> files = Files.list(file.getParent())) {
            assertThat(files).containsExactlyInAnyOrder(file, root.resolve(".local/keys"));
        }
    }
}
