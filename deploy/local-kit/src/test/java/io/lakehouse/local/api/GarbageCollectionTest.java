package io.lakehouse.local.api;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.lakehouse.local.LocalKubeServer;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The local API server collects garbage as Kubernetes does (background propagation): the services' owned objects go
 * with their owner, across kinds and generations, with the DELETED events their informers expect.
 */
class GarbageCollectionTest {

  private static final AtomicInteger NAMESPACES = new AtomicInteger();

  private static LocalKubeServer server;
  private static KubernetesClient client;

  @BeforeAll
  static void start() throws Exception {
    server = new LocalKubeServer(Files.createTempDirectory("no-crds")).start(0);
    client = server.newClient();
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  @Test
  void deletingAnOwnerDeletesItsDependentsAndTheirsWithTheirEvents() {
    String ns = namespace();
    ConfigMap owner = create(ns, IndexedApiTest.configMap("owner", Map.of()));
    ConfigMap child = create(ns, owned(IndexedApiTest.configMap("child", Map.of()), owner));
    Secret grandchild = client.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata()
        .withName("grandchild").withOwnerReferences(reference(child)).endMetadata().build()).create();
    create(ns, IndexedApiTest.configMap("independent", Map.of()));
    // A label change stores the child under new attributes: it must stay known as the owner's dependent.
    client.configMaps().inNamespace(ns).withName("child").edit(cm -> new ConfigMapBuilder(cm).editMetadata()
        .addToLabels("app", "relabelled").endMetadata().build());

    List<String> deleted = new CopyOnWriteArrayList<>();
    try (Watch configMaps = client.configMaps().inNamespace(ns).watch(deletions(deleted));
        Watch secrets = client.secrets().inNamespace(ns).watch(deletions(deleted))) {
      client.configMaps().inNamespace(ns).withName("owner").delete();

      // Two watches: the Secret's event may come before the child's.
      await().untilAsserted(() -> assertEquals(Set.of("owner", "child", "grandchild"), Set.copyOf(deleted)));
      assertEquals(3, deleted.size());
    }
    assertNull(client.configMaps().inNamespace(ns).withName("child").get());
    assertNull(client.secrets().inNamespace(ns).withName(grandchild.getMetadata().getName()).get());
    assertNotNull(client.configMaps().inNamespace(ns).withName("independent").get());
  }

  @Test
  void aDependentGoesOnlyWithItsLastOwner() {
    String ns = namespace();
    ConfigMap first = create(ns, IndexedApiTest.configMap("first", Map.of()));
    ConfigMap second = create(ns, IndexedApiTest.configMap("second", Map.of()));
    create(ns, owned(owned(IndexedApiTest.configMap("shared", Map.of()), first), second));

    client.configMaps().inNamespace(ns).withName("first").delete();
    assertNotNull(client.configMaps().inNamespace(ns).withName("shared").get());

    client.configMaps().inNamespace(ns).withName("second").delete();
    assertNull(client.configMaps().inNamespace(ns).withName("shared").get());
  }

  @Test
  void finalizersHoldTheOwnersCollectionAndTheDependents() {
    String ns = namespace();
    ConfigMap owner = create(ns, held(IndexedApiTest.configMap("owner", Map.of())));
    create(ns, held(owned(IndexedApiTest.configMap("child", Map.of()), owner)));

    client.configMaps().inNamespace(ns).withName("owner").delete();
    // Marked, not gone: its dependents are not collected yet.
    assertNull(client.configMaps().inNamespace(ns).withName("child").get().getMetadata().getDeletionTimestamp());

    release(ns, "owner");
    assertNull(client.configMaps().inNamespace(ns).withName("owner").get());
    assertNotNull(client.configMaps().inNamespace(ns).withName("child").get().getMetadata().getDeletionTimestamp(),
        "collected, held by its own finalizer");

    release(ns, "child");
    assertNull(client.configMaps().inNamespace(ns).withName("child").get());
  }

  private static ConfigMap create(String ns, ConfigMap configMap) {
    return client.configMaps().inNamespace(ns).resource(configMap).create();
  }

  private static ConfigMap owned(ConfigMap configMap, ConfigMap owner) {
    return new ConfigMapBuilder(configMap).editMetadata().addToOwnerReferences(reference(owner)).endMetadata().build();
  }

  private static ConfigMap held(ConfigMap configMap) {
    return new ConfigMapBuilder(configMap).editMetadata().addToFinalizers("example.io/hold").endMetadata().build();
  }

  private static void release(String ns, String name) {
    client.configMaps().inNamespace(ns).withName(name).edit(cm -> new ConfigMapBuilder(cm).editMetadata()
        .withFinalizers(List.of()).endMetadata().build());
  }

  private static OwnerReference reference(HasMetadata owner) {
    return new OwnerReferenceBuilder().withApiVersion(owner.getApiVersion()).withKind(owner.getKind())
        .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid()).build();
  }

  private static <T extends HasMetadata> Watcher<T> deletions(List<String> names) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, T resource) {
        if (action == Action.DELETED) {
          names.add(resource.getMetadata().getName());
        }
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    };
  }

  private static String namespace() {
    String name = "gc-" + NAMESPACES.incrementAndGet();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }
}
