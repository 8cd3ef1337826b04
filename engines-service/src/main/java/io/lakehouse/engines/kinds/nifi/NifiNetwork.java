package io.lakehouse.engines.kinds.nifi;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.engines.reconcile.EngineContext;
import java.util.LinkedHashMap;
import java.util.Map;

/** The Service and the public Ingress of the NiFi UI and REST API, HTTPS end to end. */
final class NifiNetwork {

    /** ingress-nginx refuses bodies over 1m by default: flow definitions and NARs are uploaded from the UI. */
    static final String MAX_BODY_SIZE = "512m";

    private NifiNetwork() {}

    /**
     * Headless: it is the StatefulSet's governing Service, which gives the pod its stable name
     * ({@code <name>-0.<name>.<ns>.svc}), and with one pod it is also the instance's address.
     */
    static Service service(Instance inst, EngineContext ctx, OwnerReference owner) {
        return new ServiceBuilder()
                .withMetadata(InstanceObjects.meta(inst.name(), NifiNames.APP, inst, ctx, NifiNames.SERVER, owner))
                .withNewSpec()
                    .withClusterIP("None")
                    .withSelector(InstanceObjects.selector(NifiNames.APP, inst, NifiNames.SERVER))
                    .addNewPort().withName("https").withPort(NifiNames.HTTPS_PORT).withNewTargetPort("https")
                    .endPort()
                .endSpec()
                .build();
    }

    /** The gateway verifies NiFi's certificate against the instance CA ({@code ca.crt} of {@code <name>-tls}). */
    static Ingress ingress(Instance inst, EngineContext ctx, OwnerReference owner) {
        Map<String, String> annotations = new LinkedHashMap<>(
                InstanceObjects.backendTls(inst, NifiNames.tls(inst.name())));
        annotations.put("nginx.ingress.kubernetes.io/proxy-body-size", MAX_BODY_SIZE);
        annotations.putAll(InstanceObjects.forwardAuth(inst, ctx));
        return InstanceObjects.publicIngress(
                InstanceObjects.meta(inst.name(), NifiNames.APP, inst, ctx, NifiNames.SERVER, owner), inst, ctx,
                NifiNames.HTTPS_PORT, annotations);
    }
}
