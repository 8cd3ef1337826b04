package io.lakehouse.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/** The header of a run: machine, load, versions, settings, stack processes, code. */
final class Environment {

  private final Map<String, String> opts;
  private final Path home;
  private final String run;

  Environment(CatalogRun r) {
    this.opts = r.opts;
    this.home = r.home;
    this.run = r.run;
  }

  String environment(String load, long catalogPid, long kubePid) {
    String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
    String catalogCmd = Proc.cmdline(catalogPid);
    String kubeCmd = Proc.cmdline(kubePid);
    String delay = kubeCmd.replaceAll(".*--delay-ms (\\d+).*", "$1");
    if (delay.equals(kubeCmd)) {
      delay = "1000 (default)";
    }
    String workers = "4 (default, lakehouse.reconcile.workers)";
    String logText = Proc.read(home.resolve("logs/catalog.log"));
    int at = logText.lastIndexOf("reconcile loop started with ");
    if (at >= 0) {
      workers = logText.substring(at + "reconcile loop started with ".length()).split(" ")[0]
          + " (lakehouse.reconcile.workers, from catalog.log)";
    }
    String heap = catalogCmd.replaceAll(".*(-Xmx\\S+).*", "$1");
    String quarkus = "3.33.2";
    String deps = Proc.read(Path.of(opts.getOrDefault("repo", "."), "catalog-service/target/quarkus-app/quarkus-app-dependencies.txt"));
    java.util.regex.Matcher qm = java.util.regex.Pattern.compile("io\\.quarkus:quarkus-core::jar:(\\S+)").matcher(deps);
    if (qm.find()) {
      quarkus = qm.group(1);
    }
    String fabric8 = KubernetesClient.class.getPackage().getImplementationVersion();
    if (fabric8 == null) {
      fabric8 = jarVersion(KubernetesClient.class, "kubernetes-client-api-");
    }
    String kafka = "4.1.2";
    try (var files = Files.list(home.resolve("kafka/lib"))) {
      kafka = files.map(p -> p.getFileName().toString()).filter(n -> n.matches("kafka_2\\.13-[0-9.]+\\.jar"))
          .map(n -> n.replaceAll("kafka_2\\.13-([0-9.]+)\\.jar", "$1")).findFirst().orElse(kafka);
    } catch (IOException e) {
      // keep the documented version
    }
    String pg = Proc.postgresVersion(Integer.parseInt(opts.getOrDefault("pg-port", "55432")));
    String commit = opts.getOrDefault("commit", "?");
    StringBuilder stack = new StringBuilder();
    try (var pids = Files.list(home.resolve("run"))) {
      pids.filter(p -> p.getFileName().toString().endsWith(".pid")).sorted().forEach(p -> Proc.pidFromFile(p)
          .ifPresent(pid -> stack.append(stack.length() == 0 ? "" : ", ")
              .append(p.getFileName().toString().replace(".pid", ""))
              .append(Stats.f(" (RSS %.0f MiB)", Proc.rssKb(pid) / 1024.0))));
    } catch (IOException e) {
      stack.append("?");
    }
    return "## Latest run: " + date + "\n\n"
        + "| | |\n|---|---|\n"
        + "| machine | " + Runtime.getRuntime().availableProcessors() + " cores (nproc), " + Proc.memTotal()
        + " memory, " + Proc.cpuModel() + " |\n"
        + "| load average at start | " + load + " (1, 5, 15 min; other builds share the machine) |\n"
        + "| Java | " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
        + " (same `java` for the services and the benchmark) |\n"
        + "| versions | Quarkus " + quarkus + ", fabric8 kubernetes-client " + fabric8 + ", PostgreSQL " + pg
        + ", Kafka " + kafka + " |\n"
        + "| settings | reconcile workers " + workers + "; simulator delay " + delay + " ms; catalog-service "
        + heap + "; PostgreSQL synchronous_commit=off |\n"
        + "| stack processes at start | " + stack + " |\n"
        + "| code | " + commit + " |\n"
        + "| run id | `" + run + "` (instance names `p3-" + run + "-NNN`, `p5-" + run + "-NNNN`) |\n";
  }

  private static String jarVersion(Class<?> type, String prefix) {
    String path = type.getProtectionDomain().getCodeSource().getLocation().getPath();
    String file = path.substring(path.lastIndexOf('/') + 1);
    return file.startsWith(prefix) ? file.substring(prefix.length()).replace(".jar", "") : "?";
  }
}
