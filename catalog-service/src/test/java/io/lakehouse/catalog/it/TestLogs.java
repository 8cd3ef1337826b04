package io.lakehouse.catalog.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The service's own log of this test run ({@code %test.quarkus.log.file.*}). */
final class TestLogs {

    static final Path FILE = Path.of("target", "quarkus-test.log");

    private TestLogs() {}

    static String text() {
        try {
            return Files.exists(FILE) ? Files.readString(FILE) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
