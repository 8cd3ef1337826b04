package io.lakehouse.engines.kinds.trino;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.engines.reconcile.EngineContext;
import java.util.LinkedHashMap;
import java.util.Map;

/** The coordinator's Service (HTTP for its workers, HTTPS for clients and the gateway), the workers' and the Ingress. */
final class TrinoNetwork {

    private TrinoNetwork() {}

    /**
     * {@code https://<name>:8443} is what clients of the namespace use (with a platform token; Trino
     * refuses authentication over plain HTTP); 8080 stays for the workers and the probes.
     */
    static Service service(Instance inst, EngineContext ctx, OwnerReference owner) {
        return new ServiceBuilder()
                .withMetadata(InstanceObjects.meta(inst.name(), TrinoNames.APP, inst, ctx, TrinoNames.COORDINATOR, owner))
                .withNewSpec()
                    .withType("ClusterIP")
                    .withSelector(InstanceObjects.selector(TrinoNames.APP, inst, TrinoNames.COORDINATOR))
                    .addNewPort().withName("http").withPort(TrinoNames.HTTP_PORT).withNewTargetPort("http").endPort()
                    .addNewPort().withName("https").withPort(TrinoNames.HTTPS_PORT).withNewTargetPort("https").endPort()
                .endSpec()
                .build();
    }

    /** Headless: workers find the coordinator, nobody needs to reach a worker by a stable address. */
    static Service workerService(Instance inst, EngineContext ctx, OwnerReference owner) {
        return new ServiceBuilder()
                .withMetadata(InstanceObjects.meta(TrinoNames.workers(inst.name()), TrinoNames.APP, inst, ctx,
                        TrinoNames.WORKER, owner))
                .withNewSpec()
                    .withClusterIP("None")
                    .withSelector(InstanceObjects.selector(TrinoNames.APP, inst, TrinoNames.WORKER))
                    .addNewPort().withName("http").withPort(TrinoNames.HTTP_PORT).withNewTargetPort("http").endPort()
                .endSpec()
                .build();
    }

    /**
     * Web UI ({@code /ui/}) and SQL clients on the public host, HTTPS to the coordinator, verified;
     * only callers holding a grant get past the gateway (forward auth), then Trino's own login and rules.
     */
    static Ingress ingress(Instance inst, EngineContext ctx, OwnerReference owner) {
        Map<String, String> annotations = new LinkedHashMap<>(InstanceObjects.backendTls(inst, TrinoNames.tls(inst.name())));
        annotations.putAll(InstanceObjects.forwardAuth(inst, ctx));
        return InstanceObjects.publicIngress(
                InstanceObjects.meta(inst.name(), TrinoNames.APP, inst, ctx, TrinoNames.COORDINATOR, owner), inst, ctx,
                TrinoNames.HTTPS_PORT, annotations);
    }
}
