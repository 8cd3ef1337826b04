package io.lakehouse.engines.kinds.mlflow;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.engines.reconcile.EngineContext;

/**
 * The public route to the web UI behind the platform login: MLflow has no authentication of its
 * own, so the gateway's forward auth (grants on the instance) is all that guards it.
 */
final class MlflowIngress {

    private MlflowIngress() {}

    static Ingress of(Instance inst, EngineContext ctx, OwnerReference owner) {
        return InstanceObjects.publicIngress(MlflowServer.meta(inst, ctx, owner), inst, ctx, MlflowNames.HTTP_PORT,
                InstanceObjects.forwardAuth(inst, ctx));
    }
}
