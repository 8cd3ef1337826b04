package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

/** Owner references to an instance's root object, so that Kubernetes garbage collection cleans up. */
public final class OwnerReferences {

    private OwnerReferences() {}

    public static OwnerReference controlledBy(String apiVersion, String kind, String name, String uid) {
        return new OwnerReferenceBuilder()
                .withApiVersion(apiVersion)
                .withKind(kind)
                .withName(name)
                .withUid(uid)
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    public static OwnerReference controlledBy(HasMetadata root) {
        return controlledBy(root.getApiVersion(), root.getKind(), root.getMetadata().getName(),
                root.getMetadata().getUid());
    }
}
