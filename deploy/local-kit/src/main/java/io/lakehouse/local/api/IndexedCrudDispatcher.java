package io.lakehouse.local.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.CustomResourceDefinitionProcessor;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudDispatcherException;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudDispatcherHandler;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudPersistence;
import io.fabric8.kubernetes.client.server.mock.crud.PatchHandler;
import io.fabric8.kubernetes.client.server.mock.crud.PostHandler;
import io.fabric8.kubernetes.client.server.mock.crud.PutHandler;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.HttpURLConnection;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The CRUD half of the local API server: the fabric8 mock's {@code KubernetesCrudDispatcher} with its store indexed
 * ({@link IndexedStore}) and watches that resume from a resourceVersion ({@link Watches}). Creates, updates and
 * patches go through the mock's own handlers, so resourceVersion, generation, 409 on a stale resourceVersion or an
 * existing name, merge and JSON patches and the status subresource of custom resources behave exactly as in the mock;
 * gets, lists, deletes (one object or a selection, finalizers honoured) and watches are answered here as the mock
 * answers them, without scanning every object.
 *
 * <p>Unlike the mock it collects garbage as Kubernetes does with background propagation: once an object is gone, the
 * objects whose ownerReferences name it and no other existing owner are deleted too, and theirs in turn.
 */
public final class IndexedCrudDispatcher extends Dispatcher implements KubernetesCrudPersistence {

  /** Changes kept for resuming watches: P5's burst makes ≈ 17,000; an informer further behind lists again. */
  static final int HISTORY = 20_000;
  /** The garbage collector's deletes answer no request; the path only tells CRD changes apart, and no CRD is owned. */
  private static final String NO_REQUEST_PATH = "";

  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private final AtomicLong resourceVersion = new AtomicLong();
  private final IndexedStore store = new IndexedStore();
  private final OwnerIndex owners = new OwnerIndex();
  private final Watches watches;
  private final CustomResourceDefinitionProcessor crds = new CustomResourceDefinitionProcessor();
  private final KubernetesAttributesExtractor attributes = new KubernetesAttributesExtractor();
  private final KubernetesCrudDispatcherHandler post;
  private final KubernetesCrudDispatcherHandler put;
  private final KubernetesCrudDispatcherHandler patch;

  /** Knows the custom resources of {@code contexts} (status subresource, plural) before their CRD objects exist. */
  public IndexedCrudDispatcher(List<CustomResourceDefinitionContext> contexts) {
    this(contexts, HISTORY);
  }

  IndexedCrudDispatcher(List<CustomResourceDefinitionContext> contexts, int history) {
    this.watches = new Watches(history);
    attributes.setCustomResourceDefinitionProcessor(crds);
    contexts.forEach(crds::addCrdContext);
    post = new PostHandler(attributes, this);
    put = new PutHandler(this);
    patch = new PatchHandler(this);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    String path = request.getPath();
    return switch (request.method()) {
      case POST -> write(request, post);
      case PUT -> write(request, put);
      case PATCH -> write(request, patch);
      case GET -> RequestQuery.isWatch(path) ? watch(path) : locked(lock.readLock(), () -> get(path));
      case DELETE -> locked(lock.writeLock(), () -> delete(path));
      default -> new MockResponse().setResponseCode(HttpURLConnection.HTTP_BAD_METHOD);
    };
  }

  private MockResponse write(RecordedRequest request, KubernetesCrudDispatcherHandler handler) {
    return locked(lock.writeLock(), () -> {
      try {
        return handler.handle(request);
      } catch (KubernetesCrudDispatcherException e) {
        return new MockResponse().setResponseCode(e.getCode()).setBody(e.toStatusBody());
      }
    });
  }

  private MockResponse get(String path) {
    AttributeSet query = attributes.fromPath(path);
    if (query.containsKey(KubernetesAttributesExtractor.NAME)) {
      List<Map.Entry<AttributeSet, String>> items = store.select(query);
      return items.isEmpty() ? new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND)
          : new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setBody(items.get(0).getValue());
    }
    ListPage page = page(query, RequestQuery.limit(path), ListPage.Continue.parse(RequestQuery.continueToken(path)));
    // Nothing found may be a discovery request (/apis/group/version) for a custom resource.
    String discovery = page.items().isEmpty() ? crds.getApiResources(path) : null;
    return new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK)
        .setBody(discovery != null ? discovery : page.json());
  }

  /**
   * The page of a list that {@code limit} and {@code after} ask for (see {@link ListPage}); the whole list without a
   * limit. One more object than the limit is looked up to know whether another page follows.
   */
  private ListPage page(AttributeSet query, int limit, ListPage.Continue after) {
    long version = after == null ? resourceVersion.get() : after.resourceVersion();
    List<Map.Entry<AttributeSet, String>> items = store.select(query, after,
        limit > 0 ? limit + 1 : Integer.MAX_VALUE);
    String next = null;
    if (limit > 0 && items.size() > limit) {
      items = items.subList(0, limit);
      AttributeSet last = items.get(limit - 1).getKey();
      next = new ListPage.Continue(version, IndexedStore.value(last, KubernetesAttributesExtractor.NAMESPACE),
          IndexedStore.value(last, KubernetesAttributesExtractor.NAME)).token();
    }
    return new ListPage(items.stream().map(Map.Entry::getValue).toList(), version, next);
  }

  private MockResponse delete(String path) {
    AttributeSet query = attributes.fromPath(path);
    List<Map.Entry<AttributeSet, String>> items = store.select(query);
    for (Map.Entry<AttributeSet, String> item : items) {
      delete(path, query, item);
    }
    if (query.containsKey(KubernetesAttributesExtractor.NAME)) {
      return items.isEmpty() ? new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND)
          : new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setBody(items.get(0).getValue());
    }
    return new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK)
        .setBody(new ListPage(items.stream().map(Map.Entry::getValue).toList(), resourceVersion.get(), null).json());
  }

  /** Removes the object, or with finalizers left marks it for deletion once (as the mock and Kubernetes do). */
  private void delete(String path, AttributeSet query, Map.Entry<AttributeSet, String> item) {
    GenericKubernetesResource resource = Serialization.unmarshal(item.getValue(), GenericKubernetesResource.class);
    if (resource.getFinalizers().isEmpty()) {
      processEvent(path, query, item.getKey(), null, null);
    } else if (!resource.isMarkedForDeletion()) {
      resource.getMetadata().setDeletionTimestamp(ZonedDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS)
          .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
      resource.getMetadata().setResourceVersion(String.valueOf(requestResourceVersion()));
      processEvent(path, query, item.getKey(), resource, Serialization.asJson(resource));
    }
  }

  private MockResponse watch(String path) {
    AttributeSet query = attributes.fromPath(path);
    String name = RequestQuery.fieldSelectorName(path);
    if (name != null) {
      query = query.add(new Attribute(KubernetesAttributesExtractor.NAME, name));
    }
    WatchStream stream = new WatchStream(query, RequestQuery.resourceVersion(path), RequestQuery.bookmarks(path),
        this::open, this::close);
    return new MockResponse().withWebSocketUpgrade(stream);
  }

  private void open(WatchStream stream) {
    locked(lock.readLock(), () -> {
      watches.open(stream, stream.fromVersion() == null ? store.select(stream.query()) : List.of());
      return null;
    });
  }

  private void close(WatchStream stream) {
    watches.close(stream);
  }

  @Override
  public long requestResourceVersion() {
    return resourceVersion.incrementAndGet();
  }

  @Override
  public AttributeSet getKey(String path) {
    return attributes.fromPath(path);
  }

  @Override
  public Map.Entry<AttributeSet, String> findResource(AttributeSet query) {
    return store.find(query); // the caller holds the write lock
  }

  @Override
  public boolean isStatusSubresourceEnabledForResource(String path) {
    return crds.isStatusSubresourceEnabledForResource(attributes.fromKubernetesPath(path));
  }

  /**
   * Stores the new state (null: removes the object), tells the watches and, when the object is gone, deletes its
   * dependents; called under the write lock.
   */
  @Override
  public void processEvent(String path, AttributeSet pathAttributes, AttributeSet oldAttributes,
      GenericKubernetesResource resource, String newState) {
    String existing = oldAttributes == null ? null : store.remove(oldAttributes);
    String removedUid = existing == null ? null : owners.remove(oldAttributes);
    AttributeSet newAttributes = null;
    if (newState != null) {
      GenericKubernetesResource stored = resource != null ? resource
          : Serialization.unmarshal(newState, GenericKubernetesResource.class);
      newAttributes = attributes.extract(stored);
      if (!newAttributes.containsKey(KubernetesAttributesExtractor.PLURAL)) {
        // A kind the mock knows no plural of (no CRD): the plural comes from the path, as in the mock.
        newAttributes = AttributeSet.merge(pathAttributes, newAttributes);
      }
      store.put(newAttributes, newState);
      owners.put(newAttributes, stored);
    }
    if (!Objects.equals(existing, newState)) {
      long version = newState == null ? requestResourceVersion() : resourceVersion.get();
      String json = newState == null ? withResourceVersion(existing, version) : newState;
      watches.publish(new Change(version, oldAttributes, newAttributes, json));
      crds.process(path, newState == null ? existing : newState, newState == null);
    }
    if (newState == null && removedUid != null) {
      for (AttributeSet orphan : owners.orphanedBy(removedUid)) {
        delete(NO_REQUEST_PATH, orphan, store.find(orphan));
      }
    }
  }

  /** A deleted object's last state carries the deletion's resourceVersion, so a watch can resume after it. */
  private static String withResourceVersion(String json, long version) {
    try {
      ObjectNode node = (ObjectNode) Serialization.jsonMapper().readTree(json);
      ((ObjectNode) node.path(METADATA)).put(RESOURCE_VERSION, String.valueOf(version));
      return Serialization.jsonMapper().writeValueAsString(node);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("stored object is not JSON", e);
    }
  }

  @Override
  public void reset() {
    locked(lock.writeLock(), () -> {
      store.clear();
      owners.clear();
      watches.reset(resourceVersion.get());
      crds.reset();
      return null;
    });
  }

  private static <T> T locked(Lock lock, Supplier<T> action) {
    lock.lock();
    try {
      return action.get();
    } finally {
      lock.unlock();
    }
  }
}
