package io.lakehouse.bench;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.lakehouse.local.LocalTokens;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/** What the benchmark programs share on their command line: {@code --name value} options, logging, tokens. */
final class BenchCli {

  private BenchCli() {}

  /** {@code --name value} pairs. */
  static Map<String, String> options(String[] argv) {
    Map<String, String> opts = new HashMap<>();
    for (int i = 0; i + 1 < argv.length; i += 2) {
      if (!argv[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --name value, got " + argv[i]);
      }
      opts.put(argv[i].substring(2), argv[i + 1]);
    }
    stackDefaults(opts, System.getenv());
    return opts;
  }

  /** The local stack's default services and ports (deploy/local), each overridden by its LAKEHOUSE_* variable. */
  private static final String DEFAULT_SERVICES = "catalog:8081 engines:8082 notebooks:8083 sparkjobs:8084 access:8085";

  /**
   * Fills the stack's addresses the command line left out from the same variables deploy/local reads
   * (LAKEHOUSE_KUBE_PORT, LAKEHOUSE_KAFKA_PORT, LAKEHOUSE_PG_PORT, LAKEHOUSE_SERVICES), so that a private stack on
   * other ports is found without repeating them.
   */
  static void stackDefaults(Map<String, String> opts, Map<String, String> env) {
    opts.putIfAbsent("kube", "http://127.0.0.1:" + env.getOrDefault("LAKEHOUSE_KUBE_PORT", "56443"));
    opts.putIfAbsent("kafka", "127.0.0.1:" + env.getOrDefault("LAKEHOUSE_KAFKA_PORT", "59092"));
    opts.putIfAbsent("pg-port", env.getOrDefault("LAKEHOUSE_PG_PORT", "55432"));
    opts.putIfAbsent("services", env.getOrDefault("LAKEHOUSE_SERVICES", DEFAULT_SERVICES));
  }

  /** {@code --api}, else {@link #serviceUrl}. */
  static String api(Map<String, String> opts, String service) {
    return opts.getOrDefault("api", serviceUrl(opts, service));
  }

  /** The address of {@code service} in {@code --services} (its default port when absent there). */
  static String serviceUrl(Map<String, String> opts, String service) {
    String fromServices = " " + opts.getOrDefault("services", "") + " " + DEFAULT_SERVICES + " ";
    int at = fromServices.indexOf(" " + service + ":");
    return "http://127.0.0.1:" + fromServices.substring(at + service.length() + 2).split(" ")[0];
  }

  /** Whether {@code --services} names {@code service}. */
  static boolean hasService(Map<String, String> opts, String service) {
    return (" " + opts.getOrDefault("services", "")).contains(" " + service + ":");
  }

  static int intOption(Map<String, String> opts, String name, int fallback) {
    return Integer.parseInt(opts.getOrDefault(name, Integer.toString(fallback)));
  }

  static void log(String tag, String format, Object... args) {
    System.err.printf(Locale.ROOT, "[%s %tT] %s%n", tag, System.currentTimeMillis(),
        String.format(Locale.ROOT, format, args));
  }

  /** The User-Agent of the benchmarks' own Kubernetes calls, which {@link Costs} leaves out of a service's. */
  static final String AGENT = "lakehouse-bench";

  /** The local mock Kubernetes API (127.0.0.1 only). */
  static KubernetesClient kube(Map<String, String> opts) {
    String kubeUrl = opts.getOrDefault("kube", "http://127.0.0.1:56443");
    if (!URI.create(kubeUrl).getHost().equals("127.0.0.1")) {
      throw new IllegalArgumentException("benchmarks only talk to 127.0.0.1: " + kubeUrl);
    }
    return new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty())
        .withMasterUrl(kubeUrl).withNamespace("default").withHttp2Disable(true).withUserAgent(AGENT).build()).build();
  }

  /** A platform admin's token: from {@code --token-command} (Keycloak), else signed with the local issuer's key. */
  static String token(Map<String, String> opts, Path home) {
    String tokenCommand = opts.get("token-command");
    return tokenCommand == null
        ? LocalTokens.load(home.resolve("keys")).sign(Main.ISSUER, "bench", List.of("platform-admins"),
            Duration.ofHours(2))
        : commandToken(tokenCommand);
  }

  /** A short id for this run's names: a letter and three letters or digits. */
  static String runId() {
    Random random = new Random();
    String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
    StringBuilder id = new StringBuilder().append(alphabet.charAt(random.nextInt(26)));
    for (int i = 0; i < 3; i++) {
      id.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return id.toString();
  }

  /** The last line printed by {@code command} (e.g. {@code deploy/local/lakehouse token alice}). */
  static String commandToken(String command) {
    String out = Proc.run(List.of("bash", "-c", command + " 2>/dev/null"));
    String[] lines = out.trim().split("\n");
    return lines[lines.length - 1].trim();
  }
}
