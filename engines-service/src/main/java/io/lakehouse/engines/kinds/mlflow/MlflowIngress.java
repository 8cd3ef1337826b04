package io.lakehouse.engines.kinds.mlflow;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.lakehouse.engines.domain.EngineInstance;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.reconcile.EngineObjects;

/**
 * The public route to the web UI behind the platform login: MLflow has no authentication of its
 * own, so the gateway's forward auth (grants on the instance) is all that guards it.
 */
final class MlflowIngress {

    private MlflowIngress() {}

    static Ingress of(EngineInstance inst, EngineContext ctx, OwnerReference owner) {
        return EngineObjects.publicIngress(MlflowServer.meta(inst, ctx, owner), inst, ctx, MlflowNames.HTTP_PORT,
                EngineObjects.forwardAuth(inst, ctx));
    }
}
