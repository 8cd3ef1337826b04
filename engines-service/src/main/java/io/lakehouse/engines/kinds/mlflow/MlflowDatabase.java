package io.lakehouse.engines.kinds.mlflow;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.engines.domain.EngineInstance;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.reconcile.EngineObjects;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CloudNativePG {@code Cluster} holding experiments, runs and the model registry. The operator
 * writes the application user's {@code <name>-db-app} Secret, whose {@code uri} is the backend store.
 */
final class MlflowDatabase {

    static final String DATABASE = "mlflow";
    static final String OWNER = "mlflow";

    private MlflowDatabase() {}

    static GenericKubernetesResource of(EngineInstance inst, EngineContext ctx, OwnerReference owner) {
        MlflowSpec spec = (MlflowSpec) inst.spec();
        Map<String, Object> storage = new LinkedHashMap<>();
        // The CRD does not require a size, but CloudNativePG's webhook refuses a Cluster without one.
        storage.put("size", spec.database().storageSize());
        if (ctx.storageClass() != null) {
            storage.put("storageClass", ctx.storageClass());
        }
        Map<String, Object> clusterSpec = new LinkedHashMap<>();
        clusterSpec.put("instances", 1);
        if (ctx.postgresImage() != null) {
            clusterSpec.put("imageName", ctx.postgresImage());
        }
        clusterSpec.put("storage", storage);
        clusterSpec.put("bootstrap", Map.of("initdb", Map.of("database", DATABASE, "owner", OWNER)));
        clusterSpec.put("resources", Map.of(
                "requests", Map.of("memory", "256Mi", "cpu", "100m"),
                "limits", Map.of("memory", "512Mi", "cpu", "500m")));
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(ResourceKind.CNPG_CLUSTER.apiVersion())
                .withKind(ResourceKind.CNPG_CLUSTER.kind())
                .withMetadata(EngineObjects.meta(MlflowNames.database(inst.name()), MlflowNames.APP, inst, ctx,
                        MlflowNames.DATABASE, owner))
                .withAdditionalProperties(Map.of("spec", clusterSpec))
                .build();
    }
}
