package io.lakehouse.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the phases of the engines-service benchmark ({@link EnginesBench}) share: the options, the stack's clients,
 * the run's id, and what the run reports (result rows, notes, figures, detail sections, the instances and
 * namespaces it created).
 */
final class EnginesRun {

  final Map<String, String> opts;
  final Path home;
  final Path work;
  final KubernetesClient kube;
  final Api api;
  final Events events;
  final String run = BenchCli.runId();
  final List<String> rows = new ArrayList<>();
  final List<String> notes = new ArrayList<>();
  final StringBuilder detail = new StringBuilder();
  final Map<String, Double> figures = new LinkedHashMap<>();
  /** namespace, kind, name of every instance this run created. */
  final List<String[]> created = Collections.synchronizedList(new ArrayList<>());
  final List<String> namespaces = Collections.synchronizedList(new ArrayList<>());

  EnginesRun(Map<String, String> opts) {
    this.opts = opts;
    this.home = Path.of(opts.getOrDefault("home", ".local")).toAbsolutePath();
    this.work = Path.of(opts.getOrDefault("work", "deploy/benchmarks/target/engines")).toAbsolutePath();
    this.kube = BenchCli.kube(opts);
    this.api = new Api(BenchCli.api(opts, "engines"), BenchCli.token(opts, home));
    this.events = new Events(opts.getOrDefault("kafka", "127.0.0.1:59092"));
  }

  int opt(String name, int fallback) {
    return BenchCli.intOption(opts, name, fallback);
  }
}
