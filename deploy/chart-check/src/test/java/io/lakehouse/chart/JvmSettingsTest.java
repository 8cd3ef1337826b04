package io.lakehouse.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The services run with the JVM settings docs/benchmarks.md "JVM settings, P1 and P11" and "The JIT: C1 only" measured wherever they
 * run: the local stack (deploy/local/lib/services.sh), the images (Dockerfile.jvm, through run-java.sh's variables,
 * whose own heap free ratios 10/20 made the serial collector run full collections while the API answered) and the
 * chart (javaOpts, which replaces the image's JAVA_OPTS_APPEND). The images and the chart also map the AppCDS archive
 * the image's build writes (docs/benchmarks.md "Boot and resident memory: AppCDS"; the local stack's archives:
 * LocalStackCdsTest), and the chart requests the memory a service was measured to hold.
 */
class JvmSettingsTest {

    /** Flag → value the JVM must end up with (the JVM takes the last occurrence of a flag). */
    private static final Map<String, String> MEASURED = Map.ofEntries(
            Map.entry("UseSerialGC", "+"),
            Map.entry("-Xms", "64m"),
            Map.entry("-Xmn", "24m"),
            Map.entry("MinHeapFreeRatio", "40"),
            Map.entry("MaxHeapFreeRatio", "70"),
            Map.entry("MetaspaceSize", "128m"),
            Map.entry("ReservedCodeCacheSize", "64m"),
            Map.entry("-Xss", "512k"),
            Map.entry("TrimNativeHeapInterval", "5000"),
            Map.entry("ExitOnOutOfMemoryError", "+"),
            Map.entry("TieredStopAtLevel", "1"),
            // Reconcile threads (Java's MIN_PRIORITY) at nice 10, every other thread at 0, root or not.
            Map.entry("ThreadPriorityPolicy", "1"),
            Map.entry("JavaPriority1_To_OSPriority", "10"),
            Map.entry("JavaPriority6_To_OSPriority", "0"),
            Map.entry("JavaPriority7_To_OSPriority", "0"),
            Map.entry("JavaPriority8_To_OSPriority", "0"),
            Map.entry("JavaPriority9_To_OSPriority", "0"),
            Map.entry("JavaPriority10_To_OSPriority", "0"));

    /** The archive each image's build writes with its own JVM, and which its JVM maps. */
    private static final String ARCHIVE = "/deployments/app-cds.jsa";
    /** docs/benchmarks.md "Boot and resident memory: AppCDS": 217-332 MB resident after a burst or a read benchmark. */
    private static final long MEASURED_LOADED_RSS_MIB = 320;
    /** The heap the benchmarks run with (-Xmx256m locally): half the limit in the images (MaxRAMPercentage=50). */
    private static final long HEAP_MIB = 256;

    private static final Path REPO = Helm.CHART.resolve("../../..").normalize();
    private static final String[] SERVICES = {"access-service", "catalog-service", "engines-service", "notebooks-service",
            "sparkjobs-service"};
    private static final Pattern ENV = Pattern.compile("(\\w+)=(\"([^\"]*)\"|\\S+)");

    @Test
    void theLocalStackRunsTheMeasuredSettings() throws Exception {
        assertThat(effective(split(localStackOptions()))).containsAllEntriesOf(MEASURED);
    }

    /**
     * What the priority flags do on this JDK: a thread at Java's MIN_PRIORITY (the reconcile work, common's
     * BackgroundThreads) runs at nice 10, the normal and the highest at the process's own (0 on the local stack; the
     * JVM's own threads ask for 8-10, which as root would otherwise be nice -3 to -5: the local stack would not run as
     * the images' non-root user does).
     */
    @Test
    void underTheLocalStacksOptionsOnlyTheReconcileThreadsRunBelowTheRest(@TempDir Path dir) throws Exception {
        Path probe = dir.resolve("Nice.java");
        Files.writeString(probe, """
                import java.nio.file.*;
                public class Nice {
                    public static void main(String[] args) throws Exception {
                        for (int priority : new int[] {Thread.MIN_PRIORITY, Thread.NORM_PRIORITY, Thread.MAX_PRIORITY}) {
                            Thread t = new Thread(() -> {
                                try {
                                    String stat = Files.readString(Path.of("/proc/thread-self/stat"));
                                    // after "(comm) ": state is field 3, nice field 19
                                    System.out.print(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16] + " ");
                                } catch (Exception e) {
                                    throw new RuntimeException(e);
                                }
                            });
                            t.setPriority(priority);
                            t.start();
                            t.join();
                        }
                    }
                }
                """);
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(split(localStackOptions()));
        command.add(probe.toString());
        // Standard error apart: as a non-root user the JVM warns there about the priority policy.
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // Relative to the normal thread: a test JVM started under `nice` keeps that value for the threads it may not raise.
        String[] nice = out.split(" ");
        assertThat(nice).as(out).hasSize(3);
        assertThat(nice[0]).as("a MIN_PRIORITY thread (%s)", out).isEqualTo("10");
        assertThat(Integer.parseInt(nice[1])).as("a NORM_PRIORITY thread (%s)", out).isLessThan(10);
        assertThat(nice[2]).as("a MAX_PRIORITY thread runs as a normal one (%s)", out).isEqualTo(nice[1]);
    }

    @Test
    void everyImageRunsTheMeasuredSettings() throws IOException {
        for (String service : SERVICES) {
            Map<String, String> env = dockerfileEnv(service);
            assertThat(effective(runJava(env, env.getOrDefault("JAVA_OPTS_APPEND", "")))).as(service)
                    .containsAllEntriesOf(MEASURED).containsEntry("SharedArchiveFile", ARCHIVE);
        }
    }

    @Test
    void everyImageWritesItsArchiveWithItsOwnJvmAfterCopyingTheJar() throws IOException {
        for (String service : SERVICES) {
            List<String> lines = Files.readAllLines(REPO.resolve(service).resolve("src/main/docker/Dockerfile.jvm"));
            int jar = indexOf(lines, "COPY --chown=185 target/quarkus-app/*.jar /deployments/");
            int run = indexOf(lines, "RUN ");
            assertThat(jar).as(service).isNotNegative();
            assertThat(run).as(service + ": the archive is written after the jar it describes is in place").isGreaterThan(jar);
            String step = String.join("\n", lines.subList(run, lines.size()));
            step = step.substring(0, step.indexOf("\n# "));
            assertThat(step).as(service).contains("-XX:ArchiveClassesAtExit=" + ARCHIVE, "-jar /deployments/quarkus-run.jar",
                    "-XX:+UseSerialGC", "test -s " + ARCHIVE);
            assertThat(lines.subList(0, run)).as(service + ": one image, its own JVM").filteredOn(l -> l.startsWith("FROM "))
                    .hasSize(1);
        }
    }

    @Test
    void theChartRequestsTheMeasuredMemoryAndLeavesTheHeapItsShare() throws IOException {
        for (JsonNode d : ChartRenderTest.of(StrictManifests.documents(Helm.render()), "Deployment")) {
            JsonNode resources = d.path("spec").path("template").path("spec").path("containers").get(0).path("resources");
            String service = d.path("metadata").path("name").asText();
            assertThat(mebibytes(resources.path("requests").path("memory").asText())).as(service)
                    .isGreaterThanOrEqualTo(MEASURED_LOADED_RSS_MIB);
            assertThat(mebibytes(resources.path("limits").path("memory").asText())).as(service)
                    .isGreaterThanOrEqualTo(2 * HEAP_MIB);
        }
    }

    private static int indexOf(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }

    private static long mebibytes(String quantity) {
        if (quantity.endsWith("Gi")) {
            return Long.parseLong(quantity.substring(0, quantity.length() - 2)) * 1024;
        }
        assertThat(quantity).endsWith("Mi");
        return Long.parseLong(quantity.substring(0, quantity.length() - 2));
    }

    @Test
    void theChartKeepsTheMeasuredSettingsWhenItReplacesTheImagesOptions() throws IOException {
        List<JsonNode> deployments = ChartRenderTest.of(StrictManifests.documents(Helm.render()), "Deployment");
        assertThat(deployments).hasSize(SERVICES.length);
        for (JsonNode d : deployments) {
            String service = d.path("metadata").path("name").asText();
            String javaOpts = null;
            for (JsonNode e : d.path("spec").path("template").path("spec").path("containers").get(0).path("env")) {
                if (e.path("name").asText().equals("JAVA_OPTS_APPEND")) {
                    javaOpts = e.path("value").asText();
                }
            }
            assertThat(javaOpts).as(service).isNotNull();
            assertThat(effective(runJava(dockerfileEnv(service), javaOpts))).as(service).containsAllEntriesOf(MEASURED)
                    .containsEntry("SharedArchiveFile", ARCHIVE);
        }
    }

    /**
     * The options run-java.sh (UBI OpenJDK 17 runtime) passes, in its order: the collector, its heap free ratios
     * (defaults 10 and 20 when the variables are unset), the metaspace threshold (96m), then JAVA_OPTS_APPEND.
     */
    private static List<String> runJava(Map<String, String> env, String javaOptsAppend) {
        List<String> options = new ArrayList<>(split(env.getOrDefault("GC_CONTAINER_OPTIONS", "-XX:+UseParallelGC")));
        options.add("-XX:MinHeapFreeRatio=" + env.getOrDefault("GC_MIN_HEAP_FREE_RATIO", "10"));
        options.add("-XX:MaxHeapFreeRatio=" + env.getOrDefault("GC_MAX_HEAP_FREE_RATIO", "20"));
        options.add("-XX:MetaspaceSize=" + env.getOrDefault("GC_METASPACE_SIZE", "96") + "m");
        options.addAll(split(javaOptsAppend));
        return options;
    }

    private static Map<String, String> dockerfileEnv(String service) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : Files.readAllLines(REPO.resolve(service).resolve("src/main/docker/Dockerfile.jvm"))) {
            if (line.startsWith("ENV ")) {
                Matcher m = ENV.matcher(line.substring(4));
                while (m.find()) {
                    env.put(m.group(1), m.group(3) != null ? m.group(3) : m.group(2));
                }
            }
        }
        return env;
    }

    /** SERVICES_JAVA_OPTS as bash resolves it, without LAKEHOUSE_JAVA_OPTS (which replaces it). */
    private static String localStackOptions() throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "source deploy/local/lib/services.sh && printf %s \"${SERVICES_JAVA_OPTS}\"")
                .directory(REPO.toFile()).redirectErrorStream(true);
        pb.environment().remove("LAKEHOUSE_JAVA_OPTS");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    /** Flag → the value the JVM keeps (the last one): -XX:+F / -XX:-F → "+" / "-", -XX:F=v → v, -Xms64m → 64m. */
    private static Map<String, String> effective(List<String> options) {
        Map<String, String> flags = new LinkedHashMap<>();
        for (String o : options) {
            if (o.startsWith("-XX:+") || o.startsWith("-XX:-")) {
                flags.put(o.substring(5), o.substring(4, 5));
            } else if (o.startsWith("-XX:") && o.contains("=")) {
                flags.put(o.substring(4, o.indexOf('=')), o.substring(o.indexOf('=') + 1));
            } else if (o.matches("-X(ms|mx|mn|ss).+")) {
                flags.put(o.substring(0, 4), o.substring(4));
            }
        }
        return flags;
    }

    private static List<String> split(String options) {
        return options.isBlank() ? List.of() : List.of(options.trim().split("\\s+"));
    }
}
