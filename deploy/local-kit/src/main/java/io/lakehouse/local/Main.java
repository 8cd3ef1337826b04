package io.lakehouse.local;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.local.realrun.PodCommand;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Handler;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.jboss.logmanager.handlers.ConsoleHandler;

/**
 * The local kit's command line.
 *
 * <pre>
 * kube --port 56443 --crds DIR [--delay-ms 1000] [--demo-namespace demo]
 * keys DIR
 * token --keys DIR --issuer ISS [--ttl-seconds 43200] USER [GROUP...]
 * pod --api URL --namespace NS --deployment NAME --root DIR --dist DIR ... (see PodCommand)
 * proxy --port PORT --upstream http://127.0.0.1:56443
 * </pre>
 */
public final class Main {

  private static final String USAGE = """
      usage:
        kube --port PORT --crds DIR [--delay-ms 1000] [--demo-namespace demo]
        keys DIR
        token --keys DIR --issuer ISSUER [--ttl-seconds 43200] USER [GROUP...]
        pod --api URL --namespace NS --deployment NAME --root DIR --dist DIR [--container NAME] [--java-home DIR]
            [--address SERVICE:PORT=HOST:PORT]... [--host HOST:PORT=HOST:PORT]... [--url FROM=TO]...
            [--path /PATH=DIR]... [--listen-port CONTAINER_PORT=LOCAL_PORT]...
        proxy --port PORT --upstream URL""";

  static {
    // slf4j goes to JBoss LogManager, which prints only as the JUL manager: set it before any logger exists.
    System.setProperty("java.util.logging.manager", "org.jboss.logmanager.LogManager");
  }

  private Main() {
  }

  public static void main(String[] argv) throws InterruptedException {
    logToStderr();
    if (argv.length == 0) {
      fail("missing command");
    }
    Args args = Args.parse(List.of(argv).subList(1, argv.length));
    try {
      switch (argv[0]) {
        case "kube" -> kube(args);
        case "keys" -> keys(args);
        case "token" -> token(args);
        // Repeated options: PodCommand reads the arguments itself.
        case "pod" -> System.exit(PodCommand.run(List.of(argv).subList(1, argv.length)));
        case "proxy" -> proxy(args);
        default -> fail("unknown command " + argv[0]);
      }
    } catch (RuntimeException | java.io.IOException e) {
      e.printStackTrace();
      // Exit explicitly: threads already started (Vert.x, informers) would keep a failed JVM alive.
      System.exit(1);
    }
  }

  private static void kube(Args args) throws InterruptedException {
    LocalKubeServer server = new LocalKubeServer(Path.of(args.required("crds")))
        .start(Integer.parseInt(args.required("port")));
    KubernetesClient client = server.newClient();
    Duration delay = Duration.ofMillis(Long.parseLong(args.optional("delay-ms", "1000")));
    ClusterSimulator simulator =
        new ClusterSimulator(client, delay, ClusterSimulator.GarbageCollection.BY_API).start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      simulator.close();
      client.close();
      server.close();
    }, "shutdown"));
    DemoSeed.seed(client, args.optional("demo-namespace", "demo"));
    System.out.println("local kubernetes API ready on " + server.url());
    // Runs until SIGTERM/SIGINT; the shutdown hook stops everything.
    new CountDownLatch(1).await();
  }

  /** The fault-injecting proxy of deploy/faults in front of the local API; runs until killed. */
  private static void proxy(Args args) throws InterruptedException {
    try {
      FaultProxy proxy = new FaultProxy(java.net.URI.create(args.required("upstream")))
          .start(Integer.parseInt(args.required("port")));
      System.out.println("fault proxy ready on http://127.0.0.1:" + proxy.port());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    new CountDownLatch(1).await();
  }

  private static void keys(Args args) {
    if (args.positional().size() != 1) {
      fail("keys takes one directory");
    }
    System.out.println(LocalTokens.loadOrCreate(Path.of(args.positional().get(0))).publicKeyBase64());
  }

  private static void token(Args args) {
    if (args.positional().isEmpty()) {
      fail("token needs a USER");
    }
    LocalTokens tokens = LocalTokens.load(Path.of(args.required("keys")));
    List<String> positional = args.positional();
    Duration ttl = Duration.ofSeconds(Long.parseLong(args.optional("ttl-seconds", "43200")));
    System.out.println(tokens.sign(args.required("issuer"), positional.get(0),
        positional.subList(1, positional.size()), ttl));
  }

  /** Logs go to stderr, so that stdout carries only what the scripts read: the ready line, a key, a token. */
  private static void logToStderr() {
    java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
    for (Handler handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    root.addHandler(new ConsoleHandler(ConsoleHandler.Target.SYSTEM_ERR,
        new PatternFormatter("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5p [%c] %s%e%n")));
  }

  private static void fail(String message) {
    System.err.println(message);
    System.err.println(USAGE);
    System.exit(2);
  }

  /** {@code --name value} options and positional arguments, in any order. */
  private record Args(Map<String, String> options, List<String> positional) {

    static Args parse(List<String> argv) {
      Map<String, String> options = new HashMap<>();
      List<String> positional = new ArrayList<>();
      for (int i = 0; i < argv.size(); i++) {
        String arg = argv.get(i);
        if (arg.startsWith("--")) {
          if (i + 1 == argv.size()) {
            fail("missing value for " + arg);
          }
          options.put(arg.substring(2), argv.get(++i));
        } else {
          positional.add(arg);
        }
      }
      return new Args(options, positional);
    }

    String required(String name) {
      String value = options.get(name);
      if (value == null) {
        fail("missing --" + name);
      }
      return value;
    }

    String optional(String name, String fallback) {
      return options.getOrDefault(name, fallback);
    }
  }
}
