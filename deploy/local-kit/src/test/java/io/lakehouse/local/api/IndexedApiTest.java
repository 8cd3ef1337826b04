package io.lakehouse.local.api;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the services and the simulator rely on from the local API server, checked over HTTP against the indexed
 * dispatcher: the semantics of the fabric8 mock it replaces, plus watches that resume from a resourceVersion.
 */
class IndexedApiTest {

  /** A custom resource with a status subresource, as the CRDs of the stack declare theirs. */
  private static final CustomResourceDefinitionContext WIDGETS = new CustomResourceDefinitionContext.Builder()
      .withGroup("example.io").withVersion("v1").withKind("Widget").withPlural("widgets").withScope("Namespaced")
      .withStatusSubresource(true).build();
  /** Changes kept for resuming watches: small, so that a test can outrun it. */
  private static final int HISTORY = 50;
  private static final AtomicInteger NAMESPACES = new AtomicInteger();

  /** The mock web server logs every request at INFO. */
  private static final Logger REQUEST_LOG = Logger.getLogger(MockWebServer.class.getName());

  /** The resourceVersion of the last BOOKMARK a watch of this class received. */
  private static final AtomicReference<String> lastBookmark = new AtomicReference<>();

  private static KubernetesMockServer server;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    REQUEST_LOG.setLevel(Level.WARNING);
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
        new IndexedCrudDispatcher(List.of(WIDGETS), HISTORY), false);
    server.init(InetAddress.getLoopbackAddress(), 0);
    client = server.createClient();
  }

  @AfterAll
  static void stop() {
    client.close();
    server.destroy();
  }

  @Test
  void createAssignsMetadataAndRefusesAnExistingName() {
    String ns = namespace();
    ConfigMap created = configMaps(ns).resource(configMap("a", Map.of())).create();

    assertNotNull(created.getMetadata().getUid());
    assertEquals(1L, created.getMetadata().getGeneration());
    assertEquals(ns, created.getMetadata().getNamespace());
    KubernetesClientException conflict = assertThrows(KubernetesClientException.class,
        () -> configMaps(ns).resource(configMap("a", Map.of())).create());
    assertEquals(409, conflict.getCode());
    assertEquals(404, assertThrows(KubernetesClientException.class,
        () -> configMaps(ns).resource(configMap("missing", Map.of())).update()).getCode());
  }

  @Test
  void updatesBumpResourceVersionAndStaleOnesConflict() {
    String ns = namespace();
    ConfigMap v1 = configMaps(ns).resource(configMap("a", Map.of())).create();
    ConfigMap v2 = configMaps(ns).resource(new ConfigMapBuilder(v1).addToData("k", "2").build()).update();

    assertTrue(Long.parseLong(v2.getMetadata().getResourceVersion())
        > Long.parseLong(v1.getMetadata().getResourceVersion()));
    KubernetesClientException stale = assertThrows(KubernetesClientException.class,
        () -> configMaps(ns).resource(new ConfigMapBuilder(v1).addToData("k", "3").build()).update());
    assertEquals(409, stale.getCode());
    assertEquals("2", configMaps(ns).withName("a").get().getData().get("k"));
  }

  @Test
  void generationCountsSpecChangesAndStatusGoesThroughItsSubresource() {
    String ns = namespace();
    GenericKubernetesResource widget = widget("w", Map.of("size", 1));
    widget.setAdditionalProperty("status", Map.of("phase", "ignored on create"));
    GenericKubernetesResource created = widgets(ns).resource(widget).create();
    assertNull(created.get("status"));

    created.setAdditionalProperty("spec", Map.of("size", 2));
    GenericKubernetesResource updated = widgets(ns).resource(created).update();
    updated.setAdditionalProperty("status", Map.of("phase", "Ready"));
    GenericKubernetesResource withStatus = widgets(ns).resource(updated).updateStatus();

    assertEquals(2L, updated.getMetadata().getGeneration());
    assertEquals(2L, withStatus.getMetadata().getGeneration());
    assertEquals("Ready", widgets(ns).withName("w").get().get("status", "phase"));
  }

  @Test
  void mergeAndJsonPatchesApplyAndStrategicMergeIsRefused() {
    String ns = namespace();
    configMaps(ns).resource(configMap("a", Map.of("app", "x"))).create();

    configMaps(ns).withName("a").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"merged\":\"yes\"}}");
    configMaps(ns).withName("a").patch(PatchContext.of(PatchType.JSON),
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/patched\",\"value\":\"yes\"}]");

    ConfigMap patched = configMaps(ns).withName("a").get();
    assertEquals(Map.of("key", "value", "merged", "yes"), patched.getData());
    assertEquals(Map.of("app", "x", "patched", "yes"), patched.getMetadata().getLabels());
    assertEquals(415, assertThrows(KubernetesClientException.class, () -> configMaps(ns).withName("a")
        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"data\":{\"k\":\"v\"}}")).getCode());
    // The new labels are indexed: the object is found by them.
    assertEquals(List.of("a"), names(configMaps(ns).withLabel("patched", "yes").list().getItems()));
  }

  @Test
  void labelAndFieldSelectorsFilterListsInNameOrder() {
    String ns = namespace();
    String other = namespace();
    configMaps(ns).resource(configMap("c", Map.of("app", "x", "tier", "web"))).create();
    configMaps(ns).resource(configMap("a", Map.of("app", "x"))).create();
    configMaps(ns).resource(configMap("b", Map.of("app", "y"))).create();
    configMaps(other).resource(configMap("a", Map.of("app", "x"))).create();

    assertEquals(List.of("a", "b", "c"), names(configMaps(ns).list().getItems()));
    assertEquals(List.of("a", "c"), names(configMaps(ns).withLabel("app", "x").list().getItems()));
    assertEquals(List.of("b"), names(configMaps(ns).withoutLabel("app", "x").list().getItems()));
    assertEquals(List.of("c"), names(configMaps(ns).withLabel("tier").list().getItems()));
    assertEquals(List.of("a", "b"), names(configMaps(ns).withoutLabel("tier").list().getItems()));
    assertEquals(List.of("a"), names(configMaps(ns).withField("metadata.name", "a").list().getItems()));
    assertEquals(2, client.configMaps().inAnyNamespace().withLabel("app", "x").list().getItems().stream()
        .filter(cm -> cm.getMetadata().getName().equals("a")).count());
  }

  @Test
  void listsCarryTheCurrentResourceVersion() {
    String ns = namespace();
    ConfigMap created = configMaps(ns).resource(configMap("a", Map.of())).create();

    String listed = configMaps(ns).list().getMetadata().getResourceVersion();

    assertTrue(Long.parseLong(listed) >= Long.parseLong(created.getMetadata().getResourceVersion()));
    configMaps(ns).resource(configMap("b", Map.of())).create();
    assertTrue(Long.parseLong(configMaps(ns).list().getMetadata().getResourceVersion()) > Long.parseLong(listed));
  }

  @Test
  void deletingASelectionDeletesOnlyIt() {
    String ns = namespace();
    String other = namespace();
    configMaps(ns).resource(configMap("a", Map.of("app", "x"))).create();
    configMaps(ns).resource(configMap("b", Map.of("app", "y"))).create();
    configMaps(other).resource(configMap("a", Map.of("app", "x"))).create();

    configMaps(ns).withLabel("app", "x").delete();

    assertEquals(List.of("b"), names(configMaps(ns).list().getItems()));
    assertEquals(List.of("a"), names(configMaps(other).list().getItems()));
    configMaps(ns).delete();
    assertEquals(List.of(), configMaps(ns).list().getItems());
    assertEquals(List.of(), configMaps(ns).withName("a").delete()); // already gone: nothing deleted
  }

  @Test
  void finalizersHoldADeletionUntilRemoved() {
    String ns = namespace();
    configMaps(ns).resource(new ConfigMapBuilder(configMap("a", Map.of())).editMetadata()
        .addToFinalizers("example.io/hold").endMetadata().build()).create();

    configMaps(ns).withName("a").delete();
    ConfigMap marked = configMaps(ns).withName("a").get();
    assertNotNull(marked.getMetadata().getDeletionTimestamp());

    configMaps(ns).withName("a").edit(cm -> new ConfigMapBuilder(cm).editMetadata().withFinalizers(List.of())
        .endMetadata().build());
    assertNull(configMaps(ns).withName("a").get());
  }

  @Test
  void aWatchFromAResourceVersionGetsExactlyTheChangesAfterIt() {
    String ns = namespace();
    configMaps(ns).resource(configMap("before", Map.of())).create();
    configMaps(ns).resource(configMap("gone", Map.of())).create();
    String listed = configMaps(ns).list().getMetadata().getResourceVersion();
    configMaps(ns).resource(configMap("after", Map.of())).create();
    configMaps(ns).withName("before").edit(cm -> new ConfigMapBuilder(cm).addToData("k", "v").build());
    configMaps(ns).withName("gone").delete();

    List<String> events = new CopyOnWriteArrayList<>();
    try (Watch watch = configMaps(ns).watch(new ListOptionsBuilder().withResourceVersion(listed).build(),
        recorder(events, new CompletableFuture<>()))) {
      configMaps(ns).resource(configMap("live", Map.of())).create();

      await().untilAsserted(() -> assertEquals(
          List.of("ADDED after", "MODIFIED before", "DELETED gone", "ADDED live"), events));
    }
  }

  @Test
  void aDeletedObjectComesWithTheDeletionsResourceVersion() {
    String ns = namespace();
    ConfigMap created = configMaps(ns).resource(configMap("a", Map.of())).create();
    List<HasMetadata> deleted = new CopyOnWriteArrayList<>();
    try (Watch watch = configMaps(ns).watch(new ListOptionsBuilder()
        .withResourceVersion(created.getMetadata().getResourceVersion()).build(), new Watcher<>() {
          @Override
          public void eventReceived(Action action, ConfigMap resource) {
            if (action == Action.DELETED) {
              deleted.add(resource);
            }
          }

          @Override
          public void onClose(WatcherException cause) {
          }
        })) {
      configMaps(ns).withName("a").delete();

      await().until(() -> deleted.size() == 1);
      assertTrue(Long.parseLong(deleted.get(0).getMetadata().getResourceVersion())
          > Long.parseLong(created.getMetadata().getResourceVersion()));
    }
  }

  @Test
  void aWatchWithoutResourceVersionStartsWithEverythingAsAdded() {
    String ns = namespace();
    configMaps(ns).resource(configMap("a", Map.of())).create();
    configMaps(ns).resource(configMap("b", Map.of())).create();

    List<String> events = new CopyOnWriteArrayList<>();
    try (Watch watch = configMaps(ns).watch(recorder(events, new CompletableFuture<>()))) {
      await().untilAsserted(() -> assertEquals(List.of("ADDED a", "ADDED b"), events));
    }
  }

  @Test
  void aWatchFromBeforeTheKeptChangesIsGone() {
    String ns = namespace();
    String listed = configMaps(ns).list().getMetadata().getResourceVersion();
    for (int i = 0; i <= HISTORY; i++) {
      configMaps(ns).resource(configMap("c" + i, Map.of())).create();
    }

    CompletableFuture<WatcherException> closed = new CompletableFuture<>();
    try (Watch watch = configMaps(ns).watch(new ListOptionsBuilder().withResourceVersion(listed).build(),
        recorder(new CopyOnWriteArrayList<>(), closed))) {
      WatcherException cause = closed.join();
      assertTrue(cause.isHttpGone(), cause.toString());
    }
  }

  /**
   * P7: an informer whose selection saw no change while more than the kept changes went by resumed from a
   * resourceVersion the server no longer had, got 410 Gone and listed again. Told by a BOOKMARK (as a real API server
   * tells watches that ask for them), it resumes from the bookmark and misses nothing.
   */
  @Test
  void anIdleWatchAskingForBookmarksIsKeptResumableWhileOthersChange() {
    String ns = namespace();
    List<String> events = new CopyOnWriteArrayList<>();
    ListOptions bookmarks = new ListOptionsBuilder().withAllowWatchBookmarks(true).build();
    String resumeFrom;
    try (Watch watch = configMaps(ns).withLabel("app", "x").watch(bookmarks, recorder(events, new CompletableFuture<>()))) {
      for (int i = 0; i <= 2 * HISTORY; i++) {
        configMaps(ns).resource(configMap("other" + i, Map.of("app", "y"))).create();
      }
      await().untilAsserted(() -> assertTrue(events.stream().anyMatch(e -> e.startsWith("BOOKMARK")), events.toString()));
      resumeFrom = lastBookmark.get();
    }
    configMaps(ns).resource(configMap("mine", Map.of("app", "x"))).create();

    List<String> resumed = new CopyOnWriteArrayList<>();
    CompletableFuture<WatcherException> closed = new CompletableFuture<>();
    try (Watch watch = configMaps(ns).withLabel("app", "x").watch(
        new ListOptionsBuilder().withResourceVersion(resumeFrom).withAllowWatchBookmarks(true).build(),
        recorder(resumed, closed))) {
      await().untilAsserted(() -> assertEquals(List.of("ADDED mine"), resumed));
      assertFalse(closed.isDone(), "no 410 Gone");
    }
  }

  @Test
  void aWatchSeesOnlyItsSelection() {
    String ns = namespace();
    List<String> events = new CopyOnWriteArrayList<>();
    try (Watch watch = configMaps(ns).withLabel("app", "x").watch(recorder(events, new CompletableFuture<>()))) {
      configMaps(ns).resource(configMap("other", Map.of("app", "y"))).create();
      client.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("secret")
          .addToLabels("app", "x").endMetadata().build()).create(); // same labels, another kind
      configMaps(ns).resource(configMap("mine", Map.of("app", "x"))).create();
      configMaps(ns).withName("mine").edit(cm -> new ConfigMapBuilder(cm).editMetadata()
          .addToLabels("app", "z").endMetadata().build());

      await().untilAsserted(() -> assertEquals(List.of("ADDED mine", "DELETED mine"), events));
    }
  }

  private static String namespace() {
    String name = "indexed-" + NAMESPACES.incrementAndGet();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }

  private static io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<ConfigMap,
      io.fabric8.kubernetes.api.model.ConfigMapList, io.fabric8.kubernetes.client.dsl.Resource<ConfigMap>> configMaps(
      String ns) {
    return client.configMaps().inNamespace(ns);
  }

  private static io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource,
      io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
      io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>> widgets(String ns) {
    return client.genericKubernetesResources(WIDGETS).inNamespace(ns);
  }

  static ConfigMap configMap(String name, Map<String, String> labels) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
        .addToData("key", "value").build();
  }

  private static GenericKubernetesResource widget(String name, Map<String, Object> spec) {
    GenericKubernetesResource widget = new GenericKubernetesResource();
    widget.setApiVersion("example.io/v1");
    widget.setKind("Widget");
    widget.setMetadata(new ObjectMetaBuilder().withName(name).build());
    widget.setAdditionalProperty("spec", spec);
    return widget;
  }

  private static List<String> names(List<? extends HasMetadata> objects) {
    return objects.stream().map(o -> o.getMetadata().getName()).toList();
  }

  private static Watcher<ConfigMap> recorder(List<String> events, CompletableFuture<WatcherException> closed) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, ConfigMap resource) {
        if (action == Action.BOOKMARK) {
          lastBookmark.set(resource.getMetadata().getResourceVersion());
        }
        events.add(action + " " + resource.getMetadata().getName());
      }

      @Override
      public void onClose(WatcherException cause) {
        closed.complete(cause);
      }
    };
  }
}
