package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Plays the controller of one kind: moves the object one step towards what the real controller would write, and
 * writes nothing when it is already there, so that its own write events end the chain instead of looping.
 */
interface Controller<T extends HasMetadata> {

  void reconcile(T current);
}
