package io.lakehouse.catalog.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.lakehouse.catalog.domain.CatalogKind;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.kube.CnpgClusters;

/** The CloudNativePG {@code Cluster} holding Polaris' metastore. */
public final class CatalogDatabase {

    static final String DATABASE = "polaris";
    static final String OWNER = "polaris";

    private CatalogDatabase() {}

    /**
     * No owner reference: the database holds the catalog's metadata, so only an explicit delete of the
     * instance removes it, never garbage collection after someone deleted the root object.
     */
    public static GenericKubernetesResource of(Instance inst, CatalogContext ctx) {
        return CnpgClusters.of(CatalogLabels.meta(CatalogNames.database(inst.name()), inst, ctx, CatalogLabels.DATABASE,
                null), DATABASE, OWNER, CatalogKind.spec(inst).database().storageSize(), ctx.storageClass(), ctx.postgresImage(),
                ctx.imagePullSecret());
    }
}
