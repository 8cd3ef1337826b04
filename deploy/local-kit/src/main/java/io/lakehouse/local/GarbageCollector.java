package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays Kubernetes' garbage collector, which the mock API server lacks: when an object is deleted, its dependents
 * (objects of the followed kinds whose ownerReferences name its uid) are deleted too, and theirs in turn through their
 * own delete events. Only the followed kinds take part, as owners and as dependents.
 */
final class GarbageCollector {

  private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);

  private final List<Watched<?>> kinds;

  GarbageCollector(List<Watched<?>> kinds) {
    this.kinds = kinds;
  }

  void ownerDeleted(HasMetadata owner) {
    String uid = owner.getMetadata().getUid();
    for (Watched<?> kind : kinds) {
      for (HasMetadata dependent : kind.ownedBy(uid)) {
        LOG.debug("deleting {} {}/{} owned by deleted {} {}", kind.kind(), dependent.getMetadata().getNamespace(),
            dependent.getMetadata().getName(), owner.getKind(), owner.getMetadata().getName());
        kind.delete(dependent);
      }
    }
  }
}
