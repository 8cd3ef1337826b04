package io.lakehouse.notebooks.kinds.jupyterhub;

import static io.lakehouse.common.kube.EnvVars.fromSecret;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.lakehouse.common.kube.PodSecurity;
import java.util.Map;

/**
 * configurable-http-proxy in its own Deployment, so user sessions survive a hub restart: the public
 * Service {@code <name>} (the Ingress's backend) and the API Service {@code <name>-proxy-api} the hub
 * updates routes through.
 */
final class HubProxy {

    /** The configurable-http-proxy image runs as nobody (65534). */
    static final long UID = 65534;

    private HubProxy() {}

    static Deployment deployment(HubInstance inst, HubContext ctx, OwnerReference owner) {
        String hub = "http://" + HubNames.hub(inst.name()) + ":" + HubNames.HUB_PORT;
        Map<String, Quantity> capacity = HubMeta.capacity(ctx.proxy());
        return new DeploymentBuilder()
                .withMetadata(HubMeta.meta(HubNames.proxy(inst.name()), inst, ctx, HubNames.PROXY, owner))
                .withNewSpec()
                    .withReplicas(1)
                    .withNewSelector().withMatchLabels(HubMeta.selector(inst, HubNames.PROXY)).endSelector()
                    .withNewTemplate()
                        .withNewMetadata().withLabels(HubMeta.labels(inst, ctx, HubNames.PROXY)).endMetadata()
                        .withNewSpec()
                            .withAutomountServiceAccountToken(false)
                            .withSecurityContext(PodSecurity.restrictedPod(UID, UID))
                            .withImagePullSecrets(HubMeta.pullSecrets(ctx))
                            .withContainers(new ContainerBuilder()
                                    .withName("chp")
                                    .withImage(ctx.proxyImage())
                                    .withCommand("configurable-http-proxy")
                                    .withArgs("--ip=", "--port=" + HubNames.PROXY_PORT,
                                            "--api-ip=", "--api-port=" + HubNames.PROXY_API_PORT,
                                            "--default-target=" + hub, "--error-target=" + hub + "/hub/error")
                                    .withEnv(fromSecret("CONFIGPROXY_AUTH_TOKEN", HubNames.secret(inst.name()),
                                            HubSecrets.PROXY_TOKEN))
                                    .addNewPort().withName("http").withContainerPort(HubNames.PROXY_PORT).endPort()
                                    .addNewPort().withName("api").withContainerPort(HubNames.PROXY_API_PORT).endPort()
                                    .withNewResources().withRequests(capacity).withLimits(capacity).endResources()
                                    .withLivenessProbe(probe(10, 6))
                                    .withReadinessProbe(probe(5, 3))
                                    .withSecurityContext(PodSecurity.restrictedContainer())
                                    .build())
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    private static Probe probe(int periodSeconds, int failureThreshold) {
        return new ProbeBuilder()
                .withNewHttpGet().withPath("/_chp_healthz").withNewPort("http").endHttpGet()
                .withPeriodSeconds(periodSeconds)
                .withFailureThreshold(failureThreshold)
                .withTimeoutSeconds(3)
                .build();
    }

    /** {@code <name>}: the public side, behind the Ingress. */
    static Service publicService(HubInstance inst, HubContext ctx, OwnerReference owner) {
        return service(inst.name(), "http", HubNames.PROXY_PORT, inst, ctx, owner);
    }

    static Service apiService(HubInstance inst, HubContext ctx, OwnerReference owner) {
        return service(HubNames.proxyApi(inst.name()), "api", HubNames.PROXY_API_PORT, inst, ctx, owner);
    }

    private static Service service(String name, String port, int number, HubInstance inst, HubContext ctx,
            OwnerReference owner) {
        return new ServiceBuilder()
                .withMetadata(HubMeta.meta(name, inst, ctx, HubNames.PROXY, owner))
                .withNewSpec()
                    .withType("ClusterIP")
                    .withSelector(HubMeta.selector(inst, HubNames.PROXY))
                    .addNewPort().withName(port).withPort(number).withNewTargetPort(port).endPort()
                .endSpec()
                .build();
    }
}
