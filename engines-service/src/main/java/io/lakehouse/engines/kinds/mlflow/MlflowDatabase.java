package io.lakehouse.engines.kinds.mlflow;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.kube.CnpgClusters;
import io.lakehouse.engines.reconcile.EngineContext;

/**
 * The CloudNativePG {@code Cluster} holding experiments, runs and the model registry. The operator
 * writes the application user's {@code <name>-db-app} Secret, whose {@code uri} is the backend store.
 */
final class MlflowDatabase {

    static final String DATABASE = "mlflow";
    static final String OWNER = "mlflow";

    private MlflowDatabase() {}

    /**
     * No owner reference: the database holds the users' runs, so only an explicit delete of the
     * instance removes it, never garbage collection after someone deleted the root object.
     */
    static GenericKubernetesResource of(Instance inst, EngineContext ctx) {
        String size = ((MlflowSpec) inst.spec()).database().storageSize();
        return CnpgClusters.of(InstanceObjects.meta(MlflowNames.database(inst.name()), MlflowNames.APP, inst, ctx,
                MlflowNames.DATABASE, null), DATABASE, OWNER, size, ctx.storageClass(), ctx.postgresImage(),
                ctx.imagePullSecret());
    }
}
