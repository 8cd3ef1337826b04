package io.lakehouse.bench;

import static io.lakehouse.bench.EnginesBench.BUCKET_SECRET;
import static io.lakehouse.bench.EnginesBench.CATALOG;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/** The header of an engines run: machine, load, versions, settings, code. */
final class EnginesEnvironment {

  private final Map<String, String> opts;
  private final Path home;
  private final String run;
  private final Map<String, Double> figures;

  EnginesEnvironment(EnginesRun r) {
    this.opts = r.opts;
    this.home = r.home;
    this.run = r.run;
    this.figures = r.figures;
  }

  String environment(String load, long pid, long kubePid) {
    String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
    String cmd = Proc.cmdline(pid);
    String kubeCmd = Proc.cmdline(kubePid);
    String delay = kubeCmd.replaceAll(".*--delay-ms (\\d+).*", "$1");
    if (delay.equals(kubeCmd)) {
      delay = "1000 (default)";
    }
    figures.put("simulator_delay_ms", delay.matches("\\d+") ? Double.parseDouble(delay) : 1000);
    String heap = cmd.matches(".*-Xmx\\S+.*") ? cmd.replaceAll(".*(-Xmx\\S+).*", "$1") : "default heap";
    StringBuilder stack = new StringBuilder();
    try (var pids = Files.list(home.resolve("run"))) {
      pids.filter(p -> p.getFileName().toString().endsWith(".pid")).sorted().forEach(p -> Proc.pidFromFile(p)
          .ifPresent(q -> stack.append(stack.length() == 0 ? "" : ", ")
              .append(p.getFileName().toString().replace(".pid", ""))
              .append(Stats.f(" (RSS %.0f MiB)", Proc.rssKb(q) / 1024.0))));
    } catch (IOException e) {
      stack.append("?");
    }
    return "## Latest engines run: " + date + "\n\n"
        + "| | |\n|---|---|\n"
        + "| machine | " + Runtime.getRuntime().availableProcessors() + " cores (nproc), " + Proc.memTotal()
        + " memory, " + Proc.cpuModel() + " |\n"
        + "| load average at start | " + load + " (1, 5, 15 min; other builds share the machine) |\n"
        + "| Java | " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " |\n"
        + "| settings | simulator delay " + delay + " ms; engines-service " + heap + " |\n"
        + "| stack processes at start | " + stack + " |\n"
        + "| code | " + opts.getOrDefault("commit", "?") + " |\n"
        + "| run id | `" + run + "` (namespaces `be3-" + run + "-NNN`, `be5-" + run + "-N`) |\n"
        + "| stand-ins | catalog: `instance.ready` of iceberg-catalog `" + CATALOG + "` published by the benchmark"
        + " (as catalog-service does) + bucket Secret `" + BUCKET_SECRET + "`; OIDC client of each trino / nifi:"
        + " `<name>-oidc` Secret + `access.oidc-client-ready` published by the benchmark right after the 201 (as"
        + " access-service does once Keycloak has the client) |\n";
  }
}
