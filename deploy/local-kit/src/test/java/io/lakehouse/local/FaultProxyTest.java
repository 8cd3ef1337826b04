package io.lakehouse.local;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fault proxy of deploy/faults in front of the local API: what a client sees through it. */
class FaultProxyTest {

  private final HttpClient http = HttpClient.newHttpClient();
  private FaultProxy proxy;
  private KubernetesClient client;
  private String ns;

  @BeforeEach
  void start() throws IOException {
    proxy = new FaultProxy(URI.create(Fixtures.server().url())).start(0);
    client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty())
        .withMasterUrl("http://127.0.0.1:" + proxy.port()).withNamespace("default").withHttp2Disable(true)
        .withRequestRetryBackoffLimit(0).build()).build();
    ns = Fixtures.newNamespace(client);
  }

  @AfterEach
  void stop() throws IOException {
    client.close();
    proxy.close();
  }

  @Test
  void withoutFaultsRequestsAndWatchesPassAndAreCounted() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    try (SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(ns).inform(new Handler(seen))) {
      client.configMaps().inNamespace(ns).resource(configMap("a")).create();
      await().atMost(Duration.ofSeconds(10)).until(() -> seen.contains("a"));
      assertEquals("a", client.configMaps().inNamespace(ns).withName("a").get().getMetadata().getName());
    }
    String counters = get("/_faults").body();
    assertTrue(counters.contains("\"mutating\":2"), counters); // the namespace and the ConfigMap
    assertTrue(counters.contains("\"watches\":"), counters);
  }

  @Test
  void conflictsHitWritesOnlyAndServerErrorsEverything() {
    proxy.setFaults(FaultProxy.Faults.parse("rate409=1"));
    KubernetesClientException conflict = assertThrows(KubernetesClientException.class,
        () -> client.configMaps().inNamespace(ns).resource(configMap("b")).create());
    assertEquals(409, conflict.getCode());
    assertEquals(0, client.configMaps().inNamespace(ns).list().getItems().size()); // reads pass, nothing written

    proxy.setFaults(FaultProxy.Faults.parse("rate500=1"));
    assertEquals(500, assertThrows(KubernetesClientException.class,
        () -> client.configMaps().inNamespace(ns).list()).getCode());
    proxy.setFaults(FaultProxy.Faults.NONE);
    assertEquals(0, client.configMaps().inNamespace(ns).list().getItems().size());
  }

  @Test
  void tooManyRequestsSaysWhenToRetryAndGoneHitsWatchesOnly() throws Exception {
    post("/_faults?rate429=1");
    HttpResponse<String> throttled = get("/api/v1/namespaces/" + ns + "/configmaps");
    assertEquals(429, throttled.statusCode());
    assertEquals("1", throttled.headers().firstValue("Retry-After").orElseThrow());

    post("/_faults?rate410=1");
    assertEquals(410, get("/api/v1/namespaces/" + ns + "/configmaps?watch=true").statusCode());
    assertEquals(200, get("/api/v1/namespaces/" + ns + "/configmaps").statusCode());
    String counters = get("/_faults").body();
    assertTrue(counters.contains("\"injected410\":1") && counters.contains("\"injected429\":1"), counters);
  }

  @Test
  void aGoneRateDropsOpenWatchesAndTheirInformerRecovers() {
    List<String> seen = new CopyOnWriteArrayList<>();
    try (SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(ns).inform(new Handler(seen))) {
      proxy.setFaults(FaultProxy.Faults.parse("rate410=1"));
      await().atMost(Duration.ofSeconds(10)).until(() -> proxy.countersJson().contains("\"injected410\""));
      proxy.setFaults(FaultProxy.Faults.NONE);
      client.configMaps().inNamespace(ns).resource(configMap("c")).create();
      await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains("c"));
    }
  }

  @Test
  void aRateOutsideZeroToOneIsRefused() throws Exception {
    assertEquals(400, post("/_faults?rate500=2").statusCode());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + path))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().addToData("k", "v").build();
  }

  private record Handler(List<String> seen) implements ResourceEventHandler<ConfigMap> {

    @Override
    public void onAdd(ConfigMap obj) {
      seen.add(obj.getMetadata().getName());
    }

    @Override
    public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
      // not needed
    }

    @Override
    public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
      // not needed
    }
  }
}
