package io.lakehouse.notebooks.kinds.jupyterhub;

import static io.lakehouse.common.kube.EnvVars.fromSecret;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.kube.Checksums;
import io.lakehouse.common.kube.PodSecurity;
import java.util.List;
import java.util.Map;

/**
 * The hub: its configuration, its database volume, its Deployment (one replica: JupyterHub is a
 * single process on a sqlite file) and its Service, which the proxy and user servers call.
 */
final class HubServer {

    /** The k8s-hub image runs as jovyan, uid/gid 1000. */
    static final long UID = 1000;
    static final String DB_SIZE = "1Gi";
    static final String CONFIG_CHECKSUM = "lakehouse.io/config-checksum";

    private HubServer() {}

    static ConfigMap config(HubInstance inst, HubContext ctx, Bindings bindings, OwnerReference owner) {
        return new ConfigMapBuilder()
                .withMetadata(HubMeta.meta(HubNames.config(inst.name()), inst, ctx, HubNames.HUB, owner))
                .withData(Map.of(HubConfig.FILE, HubConfig.render(inst, ctx, bindings, owner)))
                .build();
    }

    /**
     * The sqlite database (users, their servers and tokens). No owner reference: like every stateful
     * object, only the teardown of a deleted instance removes it, never garbage collection.
     */
    static PersistentVolumeClaim database(HubInstance inst, HubContext ctx) {
        return new PersistentVolumeClaimBuilder()
                .withMetadata(HubMeta.meta(HubNames.database(inst.name()), inst, ctx, HubNames.HUB, null))
                .withNewSpec()
                    .withAccessModes("ReadWriteOnce")
                    .withStorageClassName(ctx.storageClass())
                    .withNewResources().withRequests(Map.of("storage", new Quantity(DB_SIZE))).endResources()
                .endSpec()
                .build();
    }

    static Deployment deployment(HubInstance inst, HubContext ctx, Bindings bindings, OwnerReference owner) {
        String checksum = Checksums.sha256(HubConfig.render(inst, ctx, bindings, owner)
                + String.join("", ctx.caCertificates()));
        return new DeploymentBuilder()
                .withMetadata(HubMeta.meta(HubNames.hub(inst.name()), inst, ctx, HubNames.HUB, owner))
                .withNewSpec()
                    .withReplicas(1)
                    // One writer of the sqlite file on a ReadWriteOnce volume: the old pod goes first.
                    .withNewStrategy().withType("Recreate").endStrategy()
                    .withNewSelector().withMatchLabels(HubMeta.selector(inst, HubNames.HUB)).endSelector()
                    .withNewTemplate()
                        .withNewMetadata()
                            .withLabels(HubMeta.labels(inst, ctx, HubNames.HUB))
                            // The hub reads its configuration at start: a new one restarts it.
                            .withAnnotations(Map.of(CONFIG_CHECKSUM, checksum))
                        .endMetadata()
                        .withNewSpec()
                            .withServiceAccountName(HubNames.hub(inst.name()))
                            // KubeSpawner calls the Kubernetes API with this account's token.
                            .withAutomountServiceAccountToken(true)
                            .withSecurityContext(PodSecurity.restrictedPod(UID, UID))
                            .withImagePullSecrets(HubMeta.pullSecrets(ctx))
                            // OAuthenticator's calls to the issuer (tornado, ssl defaults: SSL_CERT_FILE).
                            .withInitContainers(CaBundle.pythonInit(ctx.hubImage(), ctx.caCertificates()))
                            .withContainers(container(inst, ctx))
                            .addAllToVolumes(CaBundle.volumes(inst.name(), ctx.caCertificates()))
                            .addNewVolume().withName("config")
                                .withNewConfigMap().withName(HubNames.config(inst.name())).endConfigMap()
                            .endVolume()
                            // A whole-directory mount: the kubelet replaces the file when the grants change.
                            .addNewVolume().withName("access")
                                .withNewConfigMap().withName(HubNames.access(inst.name())).endConfigMap()
                            .endVolume()
                            .addNewVolume().withName("db")
                                .withNewPersistentVolumeClaim().withClaimName(HubNames.database(inst.name()))
                                .endPersistentVolumeClaim()
                            .endVolume()
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    private static Container container(HubInstance inst, HubContext ctx) {
        String oidc = HubNames.oidc(inst.name());
        String secret = HubNames.secret(inst.name());
        Map<String, Quantity> capacity = HubMeta.capacity(ctx.hub());
        return new ContainerBuilder()
                .withName("hub")
                .withImage(ctx.hubImage())
                .withArgs("jupyterhub", "--config", HubConfig.DIR + "/" + HubConfig.FILE, "--upgrade-db")
                .withEnv(
                        fromSecret("OIDC_ISSUER", oidc, HubNames.OIDC_ISSUER),
                        // OAuthenticator reads its client from these two variables.
                        fromSecret("OAUTH_CLIENT_ID", oidc, HubNames.OIDC_CLIENT_ID),
                        fromSecret("OAUTH_CLIENT_SECRET", oidc, HubNames.OIDC_CLIENT_SECRET),
                        fromSecret("JPY_COOKIE_SECRET", secret, HubSecrets.COOKIE_SECRET),
                        fromSecret("CONFIGPROXY_AUTH_TOKEN", secret, HubSecrets.PROXY_TOKEN))
                .addAllToEnv(CaBundle.pythonEnv(ctx.caCertificates()))
                .addNewPort().withName("http").withContainerPort(HubNames.HUB_PORT).endPort()
                .withNewResources().withRequests(capacity).withLimits(capacity).endResources()
                .withStartupProbe(probe(5, 60))
                .withLivenessProbe(probe(10, 6))
                .withReadinessProbe(probe(5, 3))
                .withSecurityContext(PodSecurity.restrictedContainer())
                .addNewVolumeMount().withName("config").withMountPath(HubConfig.DIR).withReadOnly(true).endVolumeMount()
                .addNewVolumeMount().withName("access").withMountPath(HubConfig.ACCESS_DIR).withReadOnly(true)
                .endVolumeMount()
                .addNewVolumeMount().withName("db").withMountPath(HubConfig.DB_DIR).endVolumeMount()
                .addAllToVolumeMounts(CaBundle.mounts(ctx.caCertificates()))
                .build();
    }

    private static Probe probe(int periodSeconds, int failureThreshold) {
        return new ProbeBuilder()
                .withNewHttpGet().withPath("/hub/health").withNewPort("http").endHttpGet()
                .withPeriodSeconds(periodSeconds)
                .withFailureThreshold(failureThreshold)
                .withTimeoutSeconds(3)
                .build();
    }

    /** {@code <name>-ca-certs} for the hub and the user servers; none without a CA bundle. */
    static List<ConfigMap> caBundle(HubInstance inst, HubContext ctx, OwnerReference owner) {
        return ctx.caCertificates().isEmpty() ? List.of() : List.of(CaBundle.configMap(
                HubMeta.meta(CaBundle.configMapName(inst.name()), inst, ctx, "ca-bundle", owner),
                ctx.caCertificates()));
    }

    static Service service(HubInstance inst, HubContext ctx, OwnerReference owner) {
        return new ServiceBuilder()
                .withMetadata(HubMeta.meta(HubNames.hub(inst.name()), inst, ctx, HubNames.HUB, owner))
                .withNewSpec()
                    .withType("ClusterIP")
                    .withSelector(HubMeta.selector(inst, HubNames.HUB))
                    .addNewPort().withName("http").withPort(HubNames.HUB_PORT).withNewTargetPort("http").endPort()
                .endSpec()
                .build();
    }
}
