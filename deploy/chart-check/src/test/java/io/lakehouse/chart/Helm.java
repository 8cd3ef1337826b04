package io.lakehouse.chart;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The helm binary (-Dlakehouse.helm) run on the chart (-Dlakehouse.chart.dir). */
final class Helm {

    /** Exit code, standard output and standard error of one helm command. */
    record Result(int exitCode, String out, String err) {
        Result requireSuccess(List<String> command) {
            if (exitCode != 0) {
                throw new AssertionError("helm " + String.join(" ", command) + " failed (" + exitCode + "):\n" + err + out);
            }
            return this;
        }
    }

    static final Path CHART = Path.of(property("lakehouse.chart.dir"));
    static final String RELEASE = "lh";
    static final String NAMESPACE = "lakehouse-system";

    private Helm() {
    }

    static Result run(List<String> args) {
        Path helm = Path.of(property("lakehouse.helm"));
        if (!Files.isExecutable(helm)) {
            throw new IllegalStateException("no helm at " + helm + ": deploy/local/lakehouse test fetches it into .local/helm"
                    + " (or pass -Dlakehouse.helm=PATH; -Dlakehouse.chart.skip=true skips the chart checks)");
        }
        List<String> command = new ArrayList<>(List.of(helm.toString()));
        command.addAll(args);
        try {
            Path out = Files.createTempFile("helm", ".out");
            Path err = Files.createTempFile("helm", ".err");
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("helm " + args + " did not finish in 120 s");
            }
            Result r = new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.delete(out);
            Files.delete(err);
            return r;
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** helm lint with these values files (relative to the chart; none: the defaults). */
    static Result lint(String... valuesFiles) {
        List<String> args = new ArrayList<>(List.of("lint", "--strict", CHART.toString()));
        for (String f : valuesFiles) {
            args.addAll(List.of("-f", CHART.resolve(f).toString()));
        }
        return run(args);
    }

    /** helm template of the release {@link #RELEASE} in {@link #NAMESPACE}; extra args e.g. -f, --set. */
    static Result template(String... extra) {
        List<String> args = new ArrayList<>(List.of("template", RELEASE, CHART.toString(), "--namespace", NAMESPACE));
        args.addAll(List.of(extra));
        return run(args);
    }

    /** The rendered documents of a successful helm template with these values files. */
    static String render(String... valuesFiles) {
        List<String> extra = new ArrayList<>();
        for (String f : valuesFiles) {
            extra.addAll(List.of("-f", CHART.resolve(f).toString()));
        }
        return template(extra.toArray(String[]::new)).requireSuccess(extra).out();
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("-D" + name + " is not set (the chart-check module's pom sets it)");
        }
        return value;
    }
}
