package io.lakehouse.local.api;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lakehouse.local.LocalKubeServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lists in pages ({@code limit}, {@code continue}) as a real API server serves them, so an informer listing thousands
 * of objects makes small requests (P8): pages in list order without gaps or repeats, every page at the first page's
 * resourceVersion, and an informer that pages sees the objects changed while it paged.
 */
class IndexedApiPagingTest {

  private static final List<String> NAMESPACES = List.of("paging-a", "paging-b", "paging-c");
  private static final int PER_NAMESPACE = 9;
  private static final Map<String, String> LABELS = Map.of("app", "paged");

  private static LocalKubeServer server;
  private static KubernetesClient client;

  @BeforeAll
  static void start() throws Exception {
    server = new LocalKubeServer(Files.createTempDirectory("no-crds")).start(0);
    client = server.newClient();
    for (String ns : NAMESPACES) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
      for (int i = 0; i < PER_NAMESPACE; i++) {
        client.configMaps().inNamespace(ns).resource(IndexedApiTest.configMap("cm-" + i, LABELS)).create();
      }
      // not selected: never in a page, never counted against its limit
      client.configMaps().inNamespace(ns).resource(IndexedApiTest.configMap("other", Map.of())).create();
    }
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    server.close();
  }

  @Test
  void aLimitedListComesInPagesInListOrderAtTheFirstPagesResourceVersion() {
    List<String> seen = new ArrayList<>();
    List<String> versions = new ArrayList<>();
    String next = null;
    int pages = 0;
    do {
      ConfigMapList page = client.configMaps().inAnyNamespace().withLabel("app", "paged")
          .list(new ListOptionsBuilder().withLimit(10L).withContinue(next).build());
      assertTrue(page.getItems().size() <= 10, "a page holds at most the limit");
      page.getItems().forEach(cm -> seen.add(key(cm)));
      versions.add(page.getMetadata().getResourceVersion());
      next = page.getMetadata().getContinue();
      pages++;
      if (pages == 1) {
        // a change between two pages: the list still reports where it started
        client.configMaps().inNamespace("paging-c").resource(IndexedApiTest.configMap("late", LABELS)).create();
      }
    } while (next != null && !next.isEmpty());

    List<String> expected = new ArrayList<>();
    NAMESPACES.forEach(ns -> IntStream.range(0, PER_NAMESPACE).forEach(i -> expected.add(ns + "/cm-" + i)));
    expected.add("paging-c/late"); // created after the first page, in a namespace not listed yet: served
    assertEquals(expected.stream().sorted().toList(), seen, "every object once, ordered by namespace and name");
    assertEquals(3, pages);
    assertEquals(1, versions.stream().distinct().count(), "every page reports the first page's resourceVersion");
    client.configMaps().inNamespace("paging-c").withName("late").delete();
  }

  @Test
  void withoutALimitTheWholeListComesAtOnce() {
    ConfigMapList all = client.configMaps().inAnyNamespace().withLabel("app", "paged").list();
    assertEquals(NAMESPACES.size() * PER_NAMESPACE, all.getItems().size());
    assertNull(all.getMetadata().getContinue());
    ConfigMapList exact = client.configMaps().inAnyNamespace().withLabel("app", "paged")
        .list(new ListOptionsBuilder().withLimit((long) NAMESPACES.size() * PER_NAMESPACE).build());
    assertEquals(NAMESPACES.size() * PER_NAMESPACE, exact.getItems().size());
    assertNull(exact.getMetadata().getContinue(), "no next page when the last object fits the limit");
  }

  @Test
  void anInformerListsInPagesAndHasEveryObject() throws Exception {
    long before = lists();
    SharedIndexInformer<ConfigMap> informer = client.configMaps().inAnyNamespace().withLabel("app", "paged")
        .withLimit(4L).inform();
    try {
      await().atMost(Duration.ofSeconds(10)).until(informer::hasSynced);
      assertEquals(NAMESPACES.size() * PER_NAMESPACE, informer.getStore().list().size());
      assertEquals(7, lists() - before, "27 objects in pages of 4");
      // the watch goes on from the list's resourceVersion
      client.configMaps().inNamespace("paging-a").resource(IndexedApiTest.configMap("after", LABELS)).create();
      await().atMost(Duration.ofSeconds(10))
          .until(() -> informer.getStore().getByKey("paging-a/after") != null);
      client.configMaps().inNamespace("paging-a").withName("after").delete();
    } finally {
      informer.close();
    }
  }

  private static String key(HasMetadata o) {
    return o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
  }

  /** The lists the test's client (fabric8's default User-Agent) made so far, from the server's own counters. */
  private static long lists() throws Exception {
    String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url()
        + "/_lakehouse/requests")).build(), HttpResponse.BodyHandlers.ofString()).body();
    long lists = 0;
    for (JsonNode verbs : new ObjectMapper().readTree(body)) {
      lists += verbs.path("list").asLong();
    }
    return lists;
  }
}
