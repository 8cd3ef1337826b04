package io.lakehouse.notebooks.kinds.jupyterhub;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.common.kube.ObjectMetas;
import java.util.List;
import java.util.Map;

/** Labels, metadata and small parts every object of a hub shares. */
final class HubMeta {

    private HubMeta() {}

    static Map<String, String> labels(HubInstance inst, HubContext ctx, String component) {
        return Labels.of(HubNames.APP, HubInstance.KIND, inst.name(), inst.uid(), component, ctx.managedBy());
    }

    static Map<String, String> selector(HubInstance inst, String component) {
        return Labels.selector(HubNames.APP, inst.name(), component);
    }

    static ObjectMeta meta(String name, HubInstance inst, HubContext ctx, String component, OwnerReference owner) {
        return ObjectMetas.of(name, inst.namespace(), labels(inst, ctx, component), owner);
    }

    static List<LocalObjectReference> pullSecrets(HubContext ctx) {
        return ctx.imagePullSecret() == null ? List.of() : List.of(new LocalObjectReference(ctx.imagePullSecret()));
    }

    /** Requests = limits. */
    static Map<String, Quantity> capacity(HubContext.Capacity c) {
        return Map.of("cpu", new Quantity(c.cpu()), "memory", new Quantity(c.memory()));
    }
}
