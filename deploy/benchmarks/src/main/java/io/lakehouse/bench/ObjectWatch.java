package io.lakehouse.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Informers (no polling) on the kinds of a catalog's base objects in one namespace: records when each object was
 * first seen ({@code Kind/name} → {@link System#nanoTime()} in the event handler).
 */
final class ObjectWatch implements AutoCloseable {

  static final ResourceDefinitionContext CNPG_CLUSTER = new ResourceDefinitionContext.Builder()
      .withGroup("postgresql.cnpg.io").withVersion("v1").withKind("Cluster").withPlural("clusters")
      .withNamespaced(true).build();

  private final Map<String, Long> firstSeen = new ConcurrentHashMap<>();
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

  ObjectWatch(KubernetesClient client, String namespace) {
    inform(client.configMaps().inNamespace(namespace), "ConfigMap");
    inform(client.secrets().inNamespace(namespace), "Secret");
    inform(client.apps().deployments().inNamespace(namespace), "Deployment");
    inform(client.services().inNamespace(namespace), "Service");
    inform(client.network().v1().ingresses().inNamespace(namespace), "Ingress");
    inform(client.genericKubernetesResources(CNPG_CLUSTER).inNamespace(namespace), "Cluster");
  }

  /** The kinds above plus those of a JupyterHub's objects (its database volume, KubeSpawner's RBAC, the policy). */
  static ObjectWatch forHub(KubernetesClient client, String namespace) {
    ObjectWatch watch = new ObjectWatch(client, namespace);
    watch.inform(client.persistentVolumeClaims().inNamespace(namespace), "PersistentVolumeClaim");
    watch.inform(client.serviceAccounts().inNamespace(namespace), "ServiceAccount");
    watch.inform(client.rbac().roles().inNamespace(namespace), "Role");
    watch.inform(client.rbac().roleBindings().inNamespace(namespace), "RoleBinding");
    watch.inform(client.network().v1().networkPolicies().inNamespace(namespace), "NetworkPolicy");
    return watch;
  }

  /** The base objects of catalog {@code name}: what P3 waits for. */
  static List<String> baseObjects(String name) {
    return List.of("ConfigMap/" + name + "-instance", "Secret/" + name + "-root-principal",
        "Secret/" + name + "-token-broker", "Cluster/" + name + "-db", "Deployment/" + name, "Service/" + name,
        "Ingress/" + name);
  }

  Long seen(String key) {
    return firstSeen.get(key);
  }

  /** Waits until every key was seen; returns the latest first-seen time, or -1 at the deadline. */
  synchronized long awaitAll(Collection<String> keys, long deadlineNanos) throws InterruptedException {
    while (true) {
      long latest = Long.MIN_VALUE;
      boolean all = true;
      for (String key : keys) {
        Long t = firstSeen.get(key);
        if (t == null) {
          all = false;
          break;
        }
        latest = Math.max(latest, t);
      }
      if (all) {
        return latest;
      }
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        return -1;
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  private <T extends HasMetadata> void inform(Informable<T> op, String kind) {
    informers.add(op.inform(new ResourceEventHandler<T>() {
      @Override
      public void onAdd(T obj) {
        record(kind, obj);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        record(kind, newObj);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
      }
    }, 0));
  }

  private void record(String kind, HasMetadata obj) {
    long now = System.nanoTime();
    if (firstSeen.putIfAbsent(kind + "/" + obj.getMetadata().getName(), now) == null) {
      synchronized (this) {
        notifyAll();
      }
    }
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
  }
}
