package io.lakehouse.catalog.reconcile;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.lakehouse.catalog.domain.CatalogKind;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.kube.Checksums;
import io.lakehouse.common.kube.CnpgClusters;
import io.lakehouse.common.kube.EnvVars;
import io.lakehouse.common.kube.NetworkPolicies;
import io.lakehouse.common.kube.PodSecurity;
import io.lakehouse.common.storage.StorageSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The Apache Polaris server: Deployment, Service and the public Ingress of the REST API. */
public final class PolarisServer {

    /** The Polaris image runs as uid 10000, gid 10001. */
    static final long UID = 10000;
    static final long GID = 10001;

    private PolarisServer() {}

    public static Deployment deployment(Instance inst, CatalogContext ctx, OwnerReference owner) {
        String name = CatalogNames.server(inst.name());
        return new DeploymentBuilder()
                .withMetadata(CatalogLabels.meta(name, inst, ctx, CatalogLabels.SERVER, owner))
                .withNewSpec()
                    .withReplicas(1)
                    .withNewSelector().withMatchLabels(CatalogLabels.selector(inst, CatalogLabels.SERVER)).endSelector()
                    .withNewTemplate()
                        .withNewMetadata().withLabels(CatalogLabels.labels(inst, ctx, CatalogLabels.SERVER))
                            .withAnnotations(Map.of(InstanceObjects.CONFIG_CHECKSUM, Checksums.sha256(
                                    PolarisConfig.render(inst) + String.join("", ctx.caCertificates()))))
                        .endMetadata()
                        .withNewSpec()
                            .withAutomountServiceAccountToken(false)
                            .withSecurityContext(PodSecurity.restrictedPod(UID, GID))
                            .withImagePullSecrets(InstanceObjects.pullSecrets(ctx))
                            .withInitContainers(CnpgClusters.waitForPrimary(CatalogNames.database(inst.name()),
                                    ctx.polarisImage(), CnpgClusters.Shell.BASH))
                            .addAllToInitContainers(CaBundle.javaInit(ctx.polarisImage(), ctx))
                            .withContainers(container(inst, ctx))
                            .addToVolumes(PolarisConfig.volume(inst))
                            .addNewVolume().withName("tmp").withNewEmptyDir().endEmptyDir().endVolume()
                            .addAllToVolumes(CaBundle.volumes(inst, ctx))
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    private static Container container(Instance inst, CatalogContext ctx) {
        Map<String, Quantity> capacity = Map.of(
                "memory", new Quantity(CatalogKind.spec(inst).resources().memory()),
                "cpu", new Quantity(CatalogKind.spec(inst).resources().cpu()));
        return new ContainerBuilder()
                .withName("polaris")
                .withImage(ctx.polarisImage())
                .addNewPort().withName("http").withContainerPort(CatalogNames.HTTP_PORT).endPort()
                .addNewPort().withName("management").withContainerPort(CatalogNames.MANAGEMENT_PORT).endPort()
                .withEnv(env(inst, ctx))
                .withNewResources().withRequests(capacity).withLimits(capacity).endResources()
                .withStartupProbe(probe("/q/health/ready", 5, 60))
                .withLivenessProbe(probe("/q/health/live", 10, 6))
                .withReadinessProbe(probe("/q/health/ready", 5, 3))
                // Read-only root: Polaris writes only temporary files (Vert.x cache, JDK temp files) in /tmp.
                .withSecurityContext(new SecurityContextBuilder(PodSecurity.restrictedContainer())
                        .withReadOnlyRootFilesystem(true).build())
                .addNewVolumeMount().withName("config").withMountPath(PolarisConfig.DIR).withReadOnly(true)
                .endVolumeMount()
                .addNewVolumeMount().withName("tmp").withMountPath("/tmp").endVolumeMount()
                .addAllToVolumeMounts(CaBundle.mounts(ctx))
                .build();
    }

    private static List<EnvVar> env(Instance inst, CatalogContext ctx) {
        StorageSpec storage = CatalogKind.spec(inst).storage();
        // Realm and token broker: application.properties (PolarisConfig).
        List<EnvVar> env = new ArrayList<>(PolarisPersistence.env(inst));
        // No STS here: Polaris writes metadata files with the bucket's own static keys.
        env.add(EnvVars.fromSecret("AWS_ACCESS_KEY_ID", storage.credentialsSecret(), CatalogSecrets.ACCESS_KEY_ID));
        env.add(EnvVars.fromSecret("AWS_SECRET_ACCESS_KEY", storage.credentialsSecret(),
                CatalogSecrets.SECRET_ACCESS_KEY));
        env.add(EnvVars.value("AWS_REGION", storage.region()));
        env.addAll(InstanceObjects.s3ChecksumEnv(ctx));
        if (CaBundle.enabled(ctx)) {
            // The image's run-java.sh appends these to the JVM's options (the image sets none of its own):
            // the AWS SDK (S3) and Quarkus' HTTP clients use the JDK's default trust.
            env.add(EnvVars.value("JAVA_OPTS_APPEND", String.join(" ", CaBundle.javaOptions(ctx))));
        }
        return env;
    }

    private static Probe probe(String path, int periodSeconds, int failureThreshold) {
        return new ProbeBuilder()
                .withNewHttpGet().withPath(path).withNewPort("management").endHttpGet()
                .withPeriodSeconds(periodSeconds)
                .withFailureThreshold(failureThreshold)
                .withTimeoutSeconds(3)
                .build();
    }

    public static Service service(Instance inst, CatalogContext ctx, OwnerReference owner) {
        return new ServiceBuilder()
                .withMetadata(CatalogLabels.meta(CatalogNames.server(inst.name()), inst, ctx, CatalogLabels.SERVER, owner))
                .withNewSpec()
                    .withType("ClusterIP")
                    .withSelector(CatalogLabels.selector(inst, CatalogLabels.SERVER))
                    .addNewPort().withName("http").withPort(CatalogNames.HTTP_PORT).withNewTargetPort("http").endPort()
                    .addNewPort().withName("management").withPort(CatalogNames.MANAGEMENT_PORT)
                        .withNewTargetPort("management").endPort()
                .endSpec()
                .build();
    }

    /**
     * The catalog's NetworkPolicy: the REST API for the namespace's engines and the ingress controller
     * (the public route), nothing else (the management port only serves the kubelet's probes).
     */
    public static NetworkPolicy networkPolicy(Instance inst, CatalogContext ctx, OwnerReference owner) {
        return NetworkPolicies.of(CatalogLabels.meta(CatalogNames.server(inst.name()), inst, ctx, "network", owner),
                NetworkPolicies.instancePods(CatalogKind.KIND, inst.name()), List.of(CatalogNames.HTTP_PORT),
                ctx.ingressPeer(), List.of(CatalogNames.HTTP_PORT));
    }

    /** Only the REST API is public ({@code /api/catalog}); Polaris has no web UI. */
    public static Ingress ingress(Instance inst, CatalogContext ctx, OwnerReference owner) {
        String host = CatalogNames.publicHost(inst.name(), inst.namespace(), ctx.domain());
        return new IngressBuilder()
                .withMetadata(CatalogLabels.meta(CatalogNames.server(inst.name()), inst, ctx, CatalogLabels.SERVER, owner))
                .withNewSpec()
                    .withIngressClassName(ctx.ingressClass())
                    .withTls(InstanceObjects.ingressTls(host, ctx))
                    .addNewRule().withHost(host)
                        .withNewHttp()
                            .addNewPath().withPath("/api/catalog").withPathType("Prefix")
                                .withNewBackend().withNewService().withName(CatalogNames.server(inst.name()))
                                    .withNewPort().withNumber(CatalogNames.HTTP_PORT).endPort()
                                .endService().endBackend()
                            .endPath()
                        .endHttp()
                    .endRule()
                .endSpec()
                .build();
    }
}
