package io.lakehouse.chart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local stack's AppCDS archives (deploy/local/lib/cds.sh), on a one-class jar laid out like a service's fast-jar:
 * a start without an archive dumps one at exit, the next start maps it, a rebuilt jar or a broken dump is never used.
 */
class LocalStackCdsTest {

    private static final String SERVICE = "demo:1";

    @TempDir
    Path root;
    private Path jar;
    private Path cds;

    @BeforeEach
    void aServiceJar() throws IOException {
        Path app = root.resolve("demo-service/target/quarkus-app");
        Path src = root.resolve("src/Main.java");
        Files.createDirectories(src.getParent());
        Files.createDirectories(app);
        Files.writeString(src, "public class Main { public static void main(String[] a) { System.out.println(String.join(\",\", a)); } }");
        Path classes = root.resolve("classes");
        tool("javac", "-d", classes.toString(), src.toString());
        jar = app.resolve("quarkus-run.jar");
        tool("jar", "--create", "--file", jar.toString(), "--main-class", "Main", "-C", classes.toString(), ".");
        cds = root.resolve("demo-service/target/cds");
    }

    @Test
    void aStartWithoutArchiveDumpsOneAndTheNextStartMapsIt() throws Exception {
        String first = cdsOptions();
        assertThat(first).matches("-XX:ArchiveClassesAtExit=" + cds + "/dump-\\d+-\\d+\\.jsa -Xlog:cds\\*=off");

        assertThat(java(first)).isZero();
        assertThat(dumps()).hasSize(1);

        String second = cdsOptions();
        assertThat(second).isEqualTo("-XX:SharedArchiveFile=" + cds.resolve("app.jsa") + " -Xlog:cds*=off");
        assertThat(dumps()).isEmpty();
        // -Xshare:on: the JVM fails rather than start without the archive.
        assertThat(java(second + " -Xshare:on")).isZero();
        assertThat(cdsOptions()).isEqualTo(second);
    }

    @Test
    void aRebuiltJarGetsANewArchive() throws Exception {
        java(cdsOptions());
        cdsOptions();
        assertThat(cds.resolve("app.jsa")).exists();

        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 5_000));

        assertThat(cdsOptions()).startsWith("-XX:ArchiveClassesAtExit=");
        assertThat(cds.resolve("app.jsa")).doesNotExist();
    }

    @Test
    void aBrokenDumpIsDeletedNotMapped() throws Exception {
        Files.createDirectories(cds);
        Files.write(cds.resolve("dump-1-1.jsa"), new byte[4096]);

        assertThat(cdsOptions()).startsWith("-XX:ArchiveClassesAtExit=");
        assertThat(dumps()).isEmpty();
        assertThat(cds.resolve("app.jsa")).doesNotExist();
    }

    @Test
    void lakehouseCds0TurnsItOff() throws Exception {
        assertThat(bash("LAKEHOUSE_CDS=0", "cds_options " + SERVICE)).isEmpty();
    }

    private String cdsOptions() throws Exception {
        return bash("", "cds_options " + SERVICE + " ${SERVICES_JAVA_OPTS}");
    }

    /** The service's start in miniature: the local stack's JVM options, then the CDS ones, then the jar. */
    private int java(String cdsOptions) throws Exception {
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(List.of(bash("", "printf %s \"${SERVICES_JAVA_OPTS}\"").split("\\s+")));
        command.addAll(List.of(cdsOptions.split("\\s+")));
        command.addAll(List.of("-jar", jar.toString(), "hello"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(out).as(String.join(" ", command)).contains("hello");
        return p.exitValue();
    }

    private List<Path> dumps() throws IOException {
        try (Stream<Path> files = Files.list(cds)) {
            return files.filter(f -> f.getFileName().toString().startsWith("dump-")).toList();
        }
    }

    private String bash(String env, String script) throws Exception {
        return LocalLib.run(root, env, script);
    }

    private static void tool(String name, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        java.io.PrintStream ps = new java.io.PrintStream(out);
        int rc = ToolProvider.findFirst(name).orElseThrow().run(ps, ps, args);
        assertThat(rc).as(out.toString()).isZero();
    }
}
