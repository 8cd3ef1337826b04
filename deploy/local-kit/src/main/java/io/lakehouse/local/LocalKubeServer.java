package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * The fabric8 mock Kubernetes API server on 127.0.0.1 over plain HTTP, its CRUD mode served by the indexed
 * {@link io.lakehouse.local.api.IndexedCrudDispatcher}, knowing the custom resources of the CRD files in a directory:
 * their contexts (with the status subresource) are registered and the CRD objects are created, so clients can
 * address them by apiVersion and kind.
 */
public final class LocalKubeServer implements AutoCloseable {

  /** MockWebServer logs every request at INFO: far too loud for a long-running stack. Held so the level sticks. */
  private static final Logger REQUEST_LOGGER = Logger.getLogger(MockWebServer.class.getName());
  /** MockWebServer keeps every request in memory for test assertions; nobody reads them here, so drop them. */
  private static final Duration REQUEST_LOG_CLEARING = Duration.ofSeconds(10);

  private final List<CustomResourceDefinition> crds;
  private final MockWebServer webServer = new MockWebServer();
  private final KubernetesMockServer server;
  private final ScheduledExecutorService requestLogCleaner = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "request-log-cleaner");
    thread.setDaemon(true);
    return thread;
  });
  private String url;

  /** Reads every {@code *.yaml} CRD in {@code crdDirectory}; nothing listens before {@link #start(int)}. */
  public LocalKubeServer(Path crdDirectory) {
    REQUEST_LOGGER.setLevel(Level.WARNING);
    this.crds = readCrds(crdDirectory);
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    List<CustomResourceDefinitionContext> contexts =
        crds.stream().map(CustomResourceDefinitionContext::fromCrd).toList();
    this.server = new KubernetesMockServer(new Context(), webServer, responses,
        new LogServingDispatcher(responses, contexts), false);
  }

  /** Listens on 127.0.0.1:{@code port} (0 picks a free port) and creates the CRD objects. */
  public LocalKubeServer start(int port) {
    try {
      server.init(InetAddress.getLoopbackAddress(), port);
      url = "http://127.0.0.1:" + server.getPort();
      try (KubernetesClient client = newClient()) {
        crds.forEach(crd -> client.apiextensions().v1().customResourceDefinitions().resource(crd).create());
      }
    } catch (RuntimeException e) {
      close(); // its Vert.x threads would otherwise keep the JVM alive
      throw e;
    }
    long period = REQUEST_LOG_CLEARING.toMillis();
    requestLogCleaner.scheduleAtFixedRate(webServer::reset, period, period, TimeUnit.MILLISECONDS);
    return this;
  }

  /** The API server URL, e.g. {@code http://127.0.0.1:56443}. */
  public String url() {
    return url;
  }

  /**
   * A new client for this server (plain HTTP, no kubeconfig, no token, HTTP/1.1), counted as the local kit's own
   * ({@link RequestCounts#SIMULATOR_AGENT}); the caller closes it.
   */
  public KubernetesClient newClient() {
    return new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder(Config.empty())
            .withMasterUrl(url)
            .withUserAgent(RequestCounts.SIMULATOR_AGENT)
            .withNamespace("default")
            .withHttp2Disable(true)
            .build())
        .build();
  }

  @Override
  public void close() {
    requestLogCleaner.shutdownNow();
    server.destroy();
  }

  private static List<CustomResourceDefinition> readCrds(Path directory) {
    KubernetesSerialization serialization = new KubernetesSerialization();
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(file -> file.getFileName().toString().endsWith(".yaml")).sorted()
          .map(file -> readCrd(serialization, file))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list CRDs in " + directory, e);
    }
  }

  private static CustomResourceDefinition readCrd(KubernetesSerialization serialization, Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return serialization.unmarshal(in, CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read CRD " + file, e);
    }
  }
}
