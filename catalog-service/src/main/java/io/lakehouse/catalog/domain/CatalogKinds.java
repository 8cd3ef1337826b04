package io.lakehouse.catalog.domain;

import io.lakehouse.catalog.reconcile.CatalogContext;
import io.lakehouse.common.instances.InstanceKinds;
import io.lakehouse.common.kube.ResourceKind;
import java.util.List;

/** The kinds this service offers: the catalog. */
public final class CatalogKinds {

    public static final InstanceKinds<CatalogContext> ALL = new InstanceKinds<>(List.of(new CatalogKind()));
    /** Every kind of object the catalog creates (its tasks are Jobs); the informer cache watches these. */
    public static final List<ResourceKind> WATCHED = List.of(ResourceKind.CONFIG_MAP, ResourceKind.SECRET,
            ResourceKind.DEPLOYMENT, ResourceKind.SERVICE, ResourceKind.INGRESS, ResourceKind.NETWORK_POLICY,
            ResourceKind.JOB, ResourceKind.CNPG_CLUSTER);

    private CatalogKinds() {}
}
