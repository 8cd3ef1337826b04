package io.lakehouse.common.instances;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.lakehouse.common.kube.ResourceKind;

/** The live objects of the instance's namespace, as the informer cache shows them. */
@FunctionalInterface
public interface LiveObjects {

    /** The object, or null when it does not exist. */
    HasMetadata get(ResourceKind kind, String name);
}
