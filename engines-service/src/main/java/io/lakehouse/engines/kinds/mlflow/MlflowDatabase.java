package io.lakehouse.engines.kinds.mlflow;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.common.kube.CnpgClusters;
import io.lakehouse.engines.domain.EngineInstance;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.reconcile.EngineObjects;

/**
 * The CloudNativePG {@code Cluster} holding experiments, runs and the model registry. The operator
 * writes the application user's {@code <name>-db-app} Secret, whose {@code uri} is the backend store.
 */
final class MlflowDatabase {

    static final String DATABASE = "mlflow";
    static final String OWNER = "mlflow";

    private MlflowDatabase() {}

    static GenericKubernetesResource of(EngineInstance inst, EngineContext ctx, OwnerReference owner) {
        String size = ((MlflowSpec) inst.spec()).database().storageSize();
        return CnpgClusters.of(EngineObjects.meta(MlflowNames.database(inst.name()), MlflowNames.APP, inst, ctx,
                MlflowNames.DATABASE, owner), DATABASE, OWNER, size, ctx.storageClass(), ctx.postgresImage());
    }
}
