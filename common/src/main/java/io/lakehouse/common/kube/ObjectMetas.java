package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.Map;

/** Metadata of a generated object: name, namespace, recommended labels, owner. */
public final class ObjectMetas {

    private ObjectMetas() {}

    public static ObjectMeta of(String name, String namespace, Map<String, String> labels, OwnerReference owner) {
        ObjectMetaBuilder meta = new ObjectMetaBuilder().withName(name).withNamespace(namespace).withLabels(labels);
        if (owner != null) {
            meta.withOwnerReferences(owner);
        }
        return meta.build();
    }
}
