package io.lakehouse.catalog.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.catalog.domain.CatalogInstance;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.common.kube.ResourceKind;
import java.util.LinkedHashMap;
import java.util.Map;

/** The CloudNativePG {@code Cluster} holding Polaris' metastore. */
public final class CatalogDatabase {

    static final String DATABASE = "polaris";
    static final String OWNER = "polaris";

    private CatalogDatabase() {}

    public static GenericKubernetesResource of(CatalogInstance inst, CatalogContext ctx, OwnerReference owner) {
        Map<String, Object> storage = new LinkedHashMap<>();
        // The CRD does not require a size, but CloudNativePG's webhook refuses a Cluster without one.
        storage.put("size", inst.spec().database().storageSize());
        if (ctx.storageClass() != null) {
            storage.put("storageClass", ctx.storageClass());
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("instances", 1);
        if (ctx.postgresImage() != null) {
            spec.put("imageName", ctx.postgresImage());
        }
        spec.put("storage", storage);
        spec.put("bootstrap", Map.of("initdb", Map.of("database", DATABASE, "owner", OWNER)));
        spec.put("resources", Map.of(
                "requests", Map.of("memory", "256Mi", "cpu", "100m"),
                "limits", Map.of("memory", "512Mi", "cpu", "500m")));
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(ResourceKind.CNPG_CLUSTER.apiVersion())
                .withKind(ResourceKind.CNPG_CLUSTER.kind())
                .withMetadata(CatalogLabels.meta(CatalogNames.database(inst.name()), inst, ctx, CatalogLabels.DATABASE, owner))
                .withAdditionalProperties(Map.of("spec", spec))
                .build();
    }
}
