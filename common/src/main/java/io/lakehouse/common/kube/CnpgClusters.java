package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A single-instance CloudNativePG {@code Cluster} with one application database. The operator
 * writes the application user's {@code <cluster>-app} Secret (keys username, password, uri,
 * jdbc-uri, ...), which the application reads by reference.
 */
public final class CnpgClusters {

    private CnpgClusters() {}

    /**
     * @param storageClass the volume's class, or null for the cluster default
     * @param image the PostgreSQL operand image, or null for the operator default
     */
    public static GenericKubernetesResource of(ObjectMeta meta, String database, String owner, String storageSize,
            String storageClass, String image) {
        Map<String, Object> storage = new LinkedHashMap<>();
        // The CRD does not require a size, but CloudNativePG's webhook refuses a Cluster without one.
        storage.put("size", storageSize);
        if (storageClass != null) {
            storage.put("storageClass", storageClass);
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("instances", 1);
        if (image != null) {
            spec.put("imageName", image);
        }
        spec.put("storage", storage);
        spec.put("bootstrap", Map.of("initdb", Map.of("database", database, "owner", owner)));
        spec.put("resources", Map.of(
                "requests", Map.of("memory", "256Mi", "cpu", "100m"),
                "limits", Map.of("memory", "512Mi", "cpu", "500m")));
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(ResourceKind.CNPG_CLUSTER.apiVersion())
                .withKind(ResourceKind.CNPG_CLUSTER.kind())
                .withMetadata(meta)
                .withAdditionalProperties(Map.of("spec", spec))
                .build();
    }
}
