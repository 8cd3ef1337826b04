package io.lakehouse.chart;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The local stack's shell library (deploy/local/lib), sourced by a bash process against a temporary repository root. */
final class LocalLib {

    private static final Path LIB = Helm.CHART.resolve("../../../deploy/local/lib").normalize();

    private LocalLib() {
    }

    /** Starts SCRIPT after `ENV; source common.sh; source services.sh` with REPO_ROOT = ROOT. */
    static Process start(Path root, String env, String script) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "set -euo pipefail; " + env + (env.isEmpty() ? "" : "; export LAKEHOUSE_CDS; ")
                + "REPO_ROOT='" + root + "'; source '" + LIB + "/common.sh'; source '" + LIB + "/services.sh'; " + script);
        pb.environment().remove("LAKEHOUSE_JAVA_OPTS");
        pb.environment().remove("LAKEHOUSE_CDS");
        pb.environment().remove("LAKEHOUSE_HOME");
        return pb.start();
    }

    /** What a started SCRIPT printed, once it succeeded. */
    static String output(Process p) throws Exception {
        String out = new String(p.getInputStream().readAllBytes());
        String err = new String(p.getErrorStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isZero();
        return out.trim();
    }

    static String run(Path root, String env, String script) throws Exception {
        return output(start(root, env, script));
    }
}
