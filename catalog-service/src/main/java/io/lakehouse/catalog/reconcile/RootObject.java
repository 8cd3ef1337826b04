package io.lakehouse.catalog.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.lakehouse.catalog.domain.CatalogInstance;
import io.lakehouse.catalog.domain.CatalogNames;
import java.util.Map;

/**
 * The instance's root object: every other object of the instance has an owner reference to it, so
 * that deleting it lets Kubernetes garbage collection remove whatever the service did not.
 */
public final class RootObject {

    private RootObject() {}

    public static ConfigMap of(CatalogInstance inst, CatalogContext ctx) {
        return new ConfigMapBuilder()
                .withMetadata(CatalogLabels.meta(CatalogNames.root(inst.name()), inst, ctx, CatalogLabels.INSTANCE, null))
                .withData(Map.of(
                        "kind", CatalogInstance.KIND,
                        "instance", inst.name(),
                        "uid", inst.uid().toString()))
                .build();
    }
}
