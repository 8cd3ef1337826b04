package io.lakehouse.catalog.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.catalog.domain.CatalogInstance;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.common.kube.CnpgClusters;

/** The CloudNativePG {@code Cluster} holding Polaris' metastore. */
public final class CatalogDatabase {

    static final String DATABASE = "polaris";
    static final String OWNER = "polaris";

    private CatalogDatabase() {}

    public static GenericKubernetesResource of(CatalogInstance inst, CatalogContext ctx, OwnerReference owner) {
        return CnpgClusters.of(CatalogLabels.meta(CatalogNames.database(inst.name()), inst, ctx, CatalogLabels.DATABASE,
                owner), DATABASE, OWNER, inst.spec().database().storageSize(), ctx.storageClass(), ctx.postgresImage());
    }
}
