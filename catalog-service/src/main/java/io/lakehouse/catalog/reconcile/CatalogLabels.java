package io.lakehouse.catalog.reconcile;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.catalog.domain.CatalogKind;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.common.kube.ObjectMetas;
import java.util.Map;

/** Labels and metadata of the objects of one catalog instance. */
public final class CatalogLabels {

    public static final String APP = "polaris";
    static final String SERVER = "server";
    static final String DATABASE = "database";
    static final String CREDENTIALS = "credentials";
    static final String REALM_INIT = "realm-init";
    static final String CATALOG_INIT = "catalog-init";
    static final String INSTANCE = "instance";

    private CatalogLabels() {}

    static Map<String, String> labels(Instance inst, CatalogContext ctx, String component) {
        return Labels.of(APP, CatalogKind.KIND, inst.name(), inst.uid(), component, ctx.managedBy());
    }

    static Map<String, String> selector(Instance inst, String component) {
        return Labels.selector(APP, inst.name(), component);
    }

    static ObjectMeta meta(String name, Instance inst, CatalogContext ctx, String component, OwnerReference owner) {
        return ObjectMetas.of(name, inst.namespace(), labels(inst, ctx, component), owner);
    }
}
