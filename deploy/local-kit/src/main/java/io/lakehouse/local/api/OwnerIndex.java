package io.lakehouse.local.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who owns whom among the stored objects, by uid: what the garbage collector needs to find the dependents an owner's
 * deletion leaves without any owner. Not thread-safe: used under the dispatcher's write lock.
 */
final class OwnerIndex {

  /** An object's uid and the uids its ownerReferences name. */
  private record Owned(String uid, List<String> owners) {
  }

  private final Map<AttributeSet, Owned> byKey = new HashMap<>();
  private final Map<String, AttributeSet> keyByUid = new HashMap<>();
  private final Map<String, Set<AttributeSet>> dependentsByOwner = new HashMap<>();

  /** Records {@code object}, stored under {@code key}; the caller has removed its previous key first. */
  void put(AttributeSet key, HasMetadata object) {
    String uid = object.getMetadata().getUid();
    List<String> owners = object.getMetadata().getOwnerReferences().stream().map(OwnerReference::getUid).toList();
    byKey.put(key, new Owned(uid, owners));
    if (uid != null) {
      keyByUid.put(uid, key);
    }
    owners.forEach(owner -> dependentsByOwner.computeIfAbsent(owner, o -> new LinkedHashSet<>()).add(key));
  }

  /** Forgets the object stored under {@code key}; returns its uid (null when it had none or is unknown). */
  String remove(AttributeSet key) {
    Owned owned = byKey.remove(key);
    if (owned == null) {
      return null;
    }
    if (owned.uid() != null) {
      keyByUid.remove(owned.uid(), key);
    }
    for (String owner : owned.owners()) {
      Set<AttributeSet> dependents = dependentsByOwner.get(owner);
      dependents.remove(key);
      if (dependents.isEmpty()) {
        dependentsByOwner.remove(owner);
      }
    }
    return owned.uid();
  }

  /**
   * The keys of the objects that named {@code uid} (an object just removed) as an owner and have no other owner left:
   * Kubernetes deletes an object with several owners only when the last one is gone.
   */
  List<AttributeSet> orphanedBy(String uid) {
    return dependentsByOwner.getOrDefault(uid, Set.of()).stream()
        .filter(dependent -> byKey.get(dependent).owners().stream().noneMatch(keyByUid::containsKey))
        .toList();
  }

  void clear() {
    byKey.clear();
    keyByUid.clear();
    dependentsByOwner.clear();
  }
}
