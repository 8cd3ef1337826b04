package io.lakehouse.local;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the standalone mock API server does, checked over real HTTP: the simulator and the services rely on it. No
 * simulator runs meanwhile (ClusterSimulatorTest closes its own), so what is seen here is the mock alone.
 */
class LocalKubeServerTest {

  private static KubernetesClient client;

  @BeforeAll
  static void connect() {
    client = Fixtures.server().newClient();
  }

  @AfterAll
  static void disconnect() {
    client.close();
  }

  @Test
  void knowsTheCustomResourcesByApiVersionAndKind() {
    assertEquals(List.of("clusters.postgresql.cnpg.io", "scheduledsparkapplications.sparkoperator.k8s.io",
        "sparkapplications.sparkoperator.k8s.io"),
        client.apiextensions().v1().customResourceDefinitions().list().getItems().stream()
            .map(crd -> crd.getMetadata().getName()).sorted().toList());
    String namespace = Fixtures.newNamespace(client);

    clusters().inNamespace(namespace)
        .resource(Fixtures.resource("postgresql.cnpg.io/v1", "Cluster", "db", Map.of("instances", 1))).create();

    assertEquals(1, clusters().inNamespace(namespace).list().getItems().size());
  }

  @Test
  void assignsAUniqueUidOnCreate() {
    String namespace = Fixtures.newNamespace(client);

    ConfigMap first = client.configMaps().inNamespace(namespace).resource(configMap("a")).create();
    ConfigMap second = client.configMaps().inNamespace(namespace).resource(configMap("b")).create();

    assertNotNull(first.getMetadata().getUid());
    assertNotEquals(first.getMetadata().getUid(), second.getMetadata().getUid());
  }

  @Test
  void customResourceStatusChangesOnlyThroughTheStatusSubresource() {
    String namespace = Fixtures.newNamespace(client);
    GenericKubernetesResource cluster = Fixtures.resource("postgresql.cnpg.io/v1", "Cluster", "db", Map.of());
    cluster.setAdditionalProperty("status", Map.of("phase", "set by create"));
    GenericKubernetesResource created = clusters().inNamespace(namespace).resource(cluster).create();
    assertNull(created.get("status"));

    created.setAdditionalProperty("status", Map.of("phase", "set by update"));
    GenericKubernetesResource updated = clusters().inNamespace(namespace).resource(created).update();
    assertNull(updated.get("status"));

    updated.setAdditionalProperty("status", Map.of("phase", "set through status"));
    clusters().inNamespace(namespace).resource(updated).updateStatus();
    assertEquals("set through status", clusters().inNamespace(namespace).withName("db").get().get("status", "phase"));
  }

  @Test
  void builtInKindsHaveNoStatusSubresourceInTheMock() {
    // Unlike a real API server, a plain update of a built-in kind replaces its status: the simulator then writes it
    // back, since it compares and rewrites whenever the status differs.
    String namespace = Fixtures.newNamespace(client);
    Deployment deployment = client.apps().deployments().inNamespace(namespace)
        .resource(Fixtures.deployment("web", 1)).create();
    deployment.setStatus(new DeploymentStatusBuilder().withReplicas(1).build());
    client.apps().deployments().inNamespace(namespace).resource(deployment).updateStatus();

    Deployment current = client.apps().deployments().inNamespace(namespace).withName("web").get();
    current.setStatus(null);
    client.apps().deployments().inNamespace(namespace).resource(current).update();

    assertNull(client.apps().deployments().inNamespace(namespace).withName("web").get().getStatus());
  }

  @Test
  void watchesReachAClientOverTheNetwork() {
    String namespace = Fixtures.newNamespace(client);
    List<String> events = new CopyOnWriteArrayList<>();
    try (KubernetesClient watcher = Fixtures.server().newClient();
        SharedIndexInformer<ConfigMap> informer =
            watcher.configMaps().inNamespace(namespace).inform(recorder(events))) {
      client.configMaps().inNamespace(namespace).resource(configMap("watched")).create();
      client.configMaps().inNamespace(namespace).withName("watched")
          .edit(cm -> new ConfigMapBuilder(cm).addToData("key", "changed").build());
      client.configMaps().inNamespace(namespace).withName("watched").delete();

      await().untilAsserted(() -> assertEquals(List.of("ADDED", "MODIFIED", "DELETED"), events));
    }
  }

  @Test
  void countsRequestsByClientAndVerb() throws Exception {
    String namespace = Fixtures.newNamespace(client);
    String agent = "counted-" + namespace;
    try (KubernetesClient counted = new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty())
        .withMasterUrl(Fixtures.server().url()).withHttp2Disable(true).withUserAgent(agent).build()).build()) {
      counted.configMaps().inNamespace(namespace).resource(configMap("a")).create();
      counted.configMaps().inNamespace(namespace).withName("a").get();
      counted.configMaps().inNamespace(namespace).list();
      counted.configMaps().inNamespace(namespace).withName("a").delete();
    }

    HttpResponse<String> counts = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(Fixtures.server().url() + "/_lakehouse/requests")).build(), HttpResponse.BodyHandlers.ofString());

    assertEquals(Map.of("create", 1, "get", 1, "list", 1, "delete", 1),
        new ObjectMapper().readValue(counts.body(), new TypeReference<Map<String, Map<String, Integer>>>() { })
            .get(agent));
  }

  private static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> clusters() {
    return client.genericKubernetesResources("postgresql.cnpg.io/v1", "Cluster");
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().addToData("key", "value").build();
  }

  private static <T extends HasMetadata> ResourceEventHandler<T> recorder(List<String> events) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        events.add("ADDED");
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        events.add("MODIFIED");
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        events.add("DELETED");
      }
    };
  }
}
