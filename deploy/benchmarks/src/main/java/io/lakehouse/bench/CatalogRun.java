package io.lakehouse.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the phases of the catalog-service benchmark ({@link Main}) share: the options, the stack's clients, the run's
 * id, and what the run reports (result rows, notes, figures, detail sections, the instances it created).
 */
final class CatalogRun {

  final Map<String, String> opts;
  final Path home;
  final Path work;
  final KubernetesClient kube;
  final Api api;
  final String run = BenchCli.runId();
  final List<String> rows = new ArrayList<>();
  final List<String> notes = new ArrayList<>();
  final Map<String, Double> figures = new LinkedHashMap<>();
  final StringBuilder detail = new StringBuilder();
  final List<String[]> created = Collections.synchronizedList(new ArrayList<>());

  CatalogRun(Map<String, String> opts) {
    this.opts = opts;
    this.home = Path.of(opts.getOrDefault("home", ".local")).toAbsolutePath();
    this.work = Path.of(opts.getOrDefault("work", "deploy/benchmarks/target/run")).toAbsolutePath();
    this.kube = BenchCli.kube(opts);
    String tokenCommand = opts.get("token-command");
    this.api = new Api(BenchCli.api(opts, "catalog"), BenchCli.token(opts, home));
    if (tokenCommand != null) {
      // Keycloak's access tokens live 5 min: take a new one every 4.
      ScheduledExecutorService refresh = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "token-refresh");
        t.setDaemon(true);
        return t;
      });
      refresh.scheduleAtFixedRate(() -> api.token(BenchCli.commandToken(tokenCommand)), 4, 4, TimeUnit.MINUTES);
    }
  }

  int opt(String name, int fallback) {
    return BenchCli.intOption(opts, name, fallback);
  }
}
