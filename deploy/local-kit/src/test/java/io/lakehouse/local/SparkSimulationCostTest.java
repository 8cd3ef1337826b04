package io.lakehouse.local;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the simulated Spark Operator asks of the API server for one application run to its end (P12's benchmark
 * runs 1,250 of them next to the launches it measures): its own server, so that only this simulator's calls are
 * counted under its client's name.
 */
class SparkSimulationCostTest {

  private static final String AGENT = "spark-simulation-cost";

  private static LocalKubeServer server;
  private static KubernetesClient client;
  private static KubernetesClient simulatorClient;
  private static ClusterSimulator simulator;

  @BeforeAll
  static void start() {
    server = new LocalKubeServer(Path.of("../crds")).start(0);
    client = server.newClient();
    simulatorClient = new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty())
        .withMasterUrl(server.url()).withHttp2Disable(true).withUserAgent(AGENT).build()).build();
    simulator =
        new ClusterSimulator(simulatorClient, Duration.ZERO, ClusterSimulator.GarbageCollection.BY_API).start();
  }

  @AfterAll
  static void stop() {
    simulator.close();
    simulatorClient.close();
    client.close();
    server.close();
  }

  @Test
  void anApplicationRunToItsEndCostsOneCallPerStepAndNoCollectionDelete() throws Exception {
    String namespace = Fixtures.newNamespace(client);
    Map<String, Integer> before = calls();
    Map<String, Object> spec = new HashMap<>(Map.of("type", "Python"));
    spec.put("executor", Map.of("instances", 2));
    client.genericKubernetesResources("sparkoperator.k8s.io/v1beta2", "SparkApplication").inNamespace(namespace)
        .resource(Fixtures.resource("sparkoperator.k8s.io/v1beta2", "SparkApplication", "cost", spec)).create();

    await().until(() -> "COMPLETED".equals(client.genericKubernetesResources("sparkoperator.k8s.io/v1beta2",
        "SparkApplication").inNamespace(namespace).withName("cost").get()
        .get("status", "applicationState", "state")));
    await().until(() -> client.pods().inNamespace(namespace).list().getItems().size() == 1);

    // What a user of the local stack sees is unchanged: the driver ended Succeeded, the executors are gone.
    assertEquals("Succeeded", client.pods().inNamespace(namespace).withName("cost-driver").get().getStatus()
        .getPhase());
    assertEquals(List.of("cost-driver"), client.pods().inNamespace(namespace).list().getItems().stream()
        .map(p -> p.getMetadata().getName()).toList());
    // Three status writes (SUBMITTED, RUNNING, COMPLETED); three pods created Running (no read and status write
    // each); the driver's end in one patch; the executors deleted by name (a deletecollection by label made the
    // API server scan every pod of the namespace under its lock). Before: 15 calls, with 4 gets and a
    // deletecollection.
    Map<String, Integer> spent = new HashMap<>();
    calls().forEach((verb, n) -> {
      int delta = n - before.getOrDefault(verb, 0);
      if (delta != 0 && !"watch".equals(verb)) {
        spent.put(verb, delta);
      }
    });
    assertEquals(Map.of("update", 3, "create", 3, "patch", 1, "delete", 2), spent);
  }

  private static Map<String, Integer> calls() throws Exception {
    HttpResponse<String> counts = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(server.url() + "/_lakehouse/requests")).build(), HttpResponse.BodyHandlers.ofString());
    Map<String, Integer> mine = new ObjectMapper().readValue(counts.body(),
        new TypeReference<Map<String, Map<String, Integer>>>() { }).get(AGENT);
    return mine == null ? Map.of() : mine;
  }
}
