package io.lakehouse.engines.kinds.mlflow;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.lakehouse.engines.domain.EngineInstance;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.reconcile.EngineObjects;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The public route to the web UI behind the platform login: MLflow has no authentication of its
 * own, so ingress-nginx asks access-service (forward auth) whether the caller holds a grant on the
 * instance, and sends callers without a session to the sign-in page.
 */
final class MlflowIngress {

    static final String AUTH_URL = "nginx.ingress.kubernetes.io/auth-url";
    static final String AUTH_SIGNIN = "nginx.ingress.kubernetes.io/auth-signin";

    private MlflowIngress() {}

    static Ingress of(EngineInstance inst, EngineContext ctx, OwnerReference owner) {
        String host = ctx.publicHost(inst.name(), inst.namespace());
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(AUTH_URL, ctx.forwardAuthUrl() + "?host=" + host);
        // nginx variables, expanded by the controller per request: back to the page asked for.
        annotations.put(AUTH_SIGNIN, ctx.signInUrl() + "?rd=https://$host$escaped_request_uri");
        return EngineObjects.publicIngress(MlflowServer.meta(inst, ctx, owner), inst, ctx, MlflowNames.HTTP_PORT,
                annotations);
    }
}
