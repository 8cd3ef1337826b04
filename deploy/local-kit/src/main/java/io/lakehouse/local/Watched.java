package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/** One kind the simulator follows: its API, and an informer whose cache is indexed by owner uid for the GC. */
final class Watched<T extends HasMetadata> {

  private static final String OWNER_UID = "ownerUid";

  private final String kind;
  private final MixedOperation<T, ? extends KubernetesResourceList<T>, Resource<T>> api;
  private final SharedIndexInformer<T> informer;

  Watched(String kind, MixedOperation<T, ? extends KubernetesResourceList<T>, Resource<T>> api) {
    this(kind, api, Map.of());
  }

  /** Follows only the objects that carry {@code labels}. */
  Watched(String kind, MixedOperation<T, ? extends KubernetesResourceList<T>, Resource<T>> api,
      Map<String, String> labels) {
    this.kind = kind;
    this.api = api;
    // resync 0: no periodic replays, the simulator acts on real changes only.
    this.informer = api.inAnyNamespace().withLabels(labels).runnableInformer(0);
    informer.addIndexers(Map.of(OWNER_UID, Watched::ownerUids));
  }

  String kind() {
    return kind;
  }

  /** Calls {@code handler} with the new state on every add and update. */
  void onChange(Consumer<T> handler) {
    informer.addEventHandler(handler(handler, ignored -> { }));
  }

  /** Calls {@code handler} with the last known state of every deleted object. */
  void onDelete(Consumer<T> handler) {
    informer.addEventHandler(handler(ignored -> { }, handler));
  }

  CompletionStage<Void> start() {
    return informer.start();
  }

  void stop() {
    informer.stop();
  }

  /** The latest cached state of the object, if it exists. */
  Optional<T> find(String namespace, String name) {
    return Optional.ofNullable(informer.getStore().getByKey(Cache.namespaceKeyFunc(namespace, name)));
  }

  List<T> ownedBy(String uid) {
    return informer.getIndexer().byIndex(OWNER_UID, uid);
  }

  Resource<T> resource(T obj) {
    return api.inNamespace(obj.getMetadata().getNamespace()).resource(obj);
  }

  /**
   * Writes {@code update}'s status over {@code current}'s through the status subresource. The body carries only the
   * status and the object's name and the resourceVersion read (a stale one gets 409): a status update reads nothing
   * else, so the whole object is neither copied nor sent.
   */
  void updateStatus(T current, T update) {
    update.setMetadata(new ObjectMetaBuilder().withName(current.getMetadata().getName())
        .withNamespace(current.getMetadata().getNamespace())
        .withResourceVersion(current.getMetadata().getResourceVersion()).build());
    resource(update).updateStatus();
  }

  void create(T obj) {
    resource(obj).create();
  }

  void delete(HasMetadata obj) {
    api.inNamespace(obj.getMetadata().getNamespace()).withName(obj.getMetadata().getName()).delete();
  }

  private static <T> ResourceEventHandler<T> handler(Consumer<T> changed, Consumer<T> deleted) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        changed.accept(obj);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        changed.accept(newObj);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        deleted.accept(obj);
      }
    };
  }

  private static List<String> ownerUids(HasMetadata obj) {
    return obj.getMetadata().getOwnerReferences().stream().map(OwnerReference::getUid).toList();
  }
}
