package io.lakehouse.local;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Other modules run the simulator against the mock server of their own tests, which knows none of the CRDs and
 * collects no garbage: the custom resources must still be played, and the simulator deletes the dependents.
 */
class SimulatorOnPlainMockTest {

  private KubernetesMockServer server;
  private KubernetesClient client;
  private ClusterSimulator simulator;

  @BeforeEach
  void start() {
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
        new KubernetesMixedDispatcher(responses), false);
    server.init();
    client = server.createClient();
    simulator = new ClusterSimulator(client, Duration.ZERO).start();
  }

  @AfterEach
  void stop() {
    simulator.close();
    client.close();
    server.destroy();
  }

  @Test
  void playsCustomResourcesWithoutTheirCrds() {
    client.genericKubernetesResources(Kinds.CNPG_CLUSTER).inNamespace("test")
        .resource(Fixtures.resource("postgresql.cnpg.io/v1", "Cluster", "db", Map.of("instances", 1))).create();

    await().until(() -> "Cluster in healthy state".equals(
        client.genericKubernetesResources(Kinds.CNPG_CLUSTER).inNamespace("test").withName("db").get()
            .get("status", "phase")));
    assertNotNull(client.secrets().inNamespace("test").withName("db-app").get());
  }

  @Test
  void deletingAnOwnerDeletesItsDependents() {
    Deployment owner = client.apps().deployments().inNamespace("test")
        .resource(Fixtures.deployment("owner", 1)).create();
    client.configMaps().inNamespace("test").resource(new ConfigMapBuilder().withNewMetadata().withName("owned")
        .addNewOwnerReference().withApiVersion("apps/v1").withKind("Deployment").withName("owner")
        .withUid(owner.getMetadata().getUid()).endOwnerReference().endMetadata().build()).create();
    client.configMaps().inNamespace("test").resource(new ConfigMapBuilder().withNewMetadata()
        .withName("independent").endMetadata().build()).create();

    client.apps().deployments().inNamespace("test").withName("owner").delete();

    await().until(() -> client.configMaps().inNamespace("test").withName("owned").get() == null);
    assertNotNull(client.configMaps().inNamespace("test").withName("independent").get());
  }
}
