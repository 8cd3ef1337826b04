package io.lakehouse.engines.kinds.trino;

import static io.lakehouse.common.kube.EnvVars.fromSecret;
import static io.lakehouse.common.kube.EnvVars.value;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStrategyBuilder;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.kube.Checksums;
import io.lakehouse.common.kube.PodSecurity;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.tls.TlsSecrets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The coordinator and worker Deployments. */
final class TrinoWorkloads {

    /** The Trino image runs as uid/gid 1000. */
    static final long UID = 1000;
    static final String HEALTH_CHECK = "/usr/lib/trino/bin/health-check";

    private TrinoWorkloads() {}

    static Deployment coordinator(Instance inst, EngineContext ctx, OwnerReference owner) {
        TrinoSpec spec = TrinoConfigMaps.spec(inst);
        List<EnvVar> env = new ArrayList<>(commonEnv(inst, ctx));
        env.add(fromSecret("TRINO_KEYSTORE_PASSWORD", TrinoNames.tls(inst.name()), TlsSecrets.PASSWORD));
        String oidc = InstanceObjects.oidcSecret(inst.name());
        env.add(fromSecret("OIDC_ISSUER", oidc, InstanceObjects.OIDC_ISSUER));
        env.add(fromSecret("OIDC_CLIENT_ID", oidc, InstanceObjects.OIDC_CLIENT_ID));
        env.add(fromSecret("OIDC_CLIENT_SECRET", oidc, InstanceObjects.OIDC_CLIENT_SECRET));
        // Keycloak's JWKS endpoint of the realm the issuer names.
        env.add(value("OIDC_JWKS_URL", "$(OIDC_ISSUER)/protocol/openid-connect/certs"));
        List<Volume> volumes = new ArrayList<>(volumes(inst, ctx, TrinoNames.coordinatorConfig(inst.name())));
        volumes.add(new VolumeBuilder().withName("tls")
                .withNewSecret().withSecretName(TrinoNames.tls(inst.name())).endSecret().build());
        // A whole-directory mount (no subPath): the kubelet replaces the file when the rules change.
        volumes.add(new VolumeBuilder().withName("access")
                .withNewConfigMap().withName(TrinoNames.access(inst.name())).endConfigMap().build());
        List<VolumeMount> mounts = new ArrayList<>(mounts(ctx));
        mounts.add(mount("tls", TrinoConfigMaps.TLS_DIR));
        mounts.add(mount("access", TrinoAccess.DIR));
        Container container = container(inst, ctx, spec.coordinatorMemory(), env, mounts)
                .addNewPort().withName("https").withContainerPort(TrinoNames.HTTPS_PORT).endPort()
                .build();
        Deployment coordinator = deployment(inst.name(), TrinoNames.COORDINATOR, 1, inst, ctx, owner, container,
                volumes, TrinoConfigMaps.coordinator(inst, ctx, owner));
        // One coordinator: a rolling update would run two for a while, and the workers would announce
        // themselves to either; the old one stops before the new one starts.
        coordinator.getSpec().setStrategy(new DeploymentStrategyBuilder().withType("Recreate").build());
        return coordinator;
    }

    static Deployment workers(Instance inst, EngineContext ctx, OwnerReference owner) {
        TrinoSpec spec = TrinoConfigMaps.spec(inst);
        Container container = container(inst, ctx, spec.workerMemory(), commonEnv(inst, ctx), mounts(ctx)).build();
        return deployment(TrinoNames.workers(inst.name()), TrinoNames.WORKER, spec.workers(), inst, ctx, owner,
                container, volumes(inst, ctx, TrinoNames.workerConfig(inst.name())), TrinoConfigMaps.worker(inst, ctx, owner));
    }

    private static Deployment deployment(String name, String component, int replicas, Instance inst,
            EngineContext ctx, OwnerReference owner, Container container, List<Volume> volumes, ConfigMap config) {
        String checksum = Checksums.sha256(config.getData().toString()
                + TrinoConfigMaps.catalog(inst, ctx, owner).getData().toString()
                + String.join("", ctx.caCertificates()));
        return new DeploymentBuilder()
                .withMetadata(InstanceObjects.meta(name, TrinoNames.APP, inst, ctx, component, owner))
                .withNewSpec()
                    .withReplicas(replicas)
                    .withNewSelector().withMatchLabels(InstanceObjects.selector(TrinoNames.APP, inst, component))
                    .endSelector()
                    .withNewTemplate()
                        .withNewMetadata()
                            .withLabels(InstanceObjects.labels(TrinoNames.APP, inst, ctx, component))
                            .withAnnotations(Map.of(InstanceObjects.CONFIG_CHECKSUM, checksum))
                        .endMetadata()
                        .withNewSpec()
                            .withAutomountServiceAccountToken(false)
                            .withSecurityContext(PodSecurity.restrictedPod(UID, UID))
                            .withImagePullSecrets(InstanceObjects.pullSecrets(ctx))
                            .withInitContainers(CaBundle.javaInit(ctx.trinoImage(), ctx))
                            .withContainers(container)
                            .withVolumes(volumes)
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    private static ContainerBuilder container(Instance inst, EngineContext ctx, String memory, List<EnvVar> env,
            List<VolumeMount> mounts) {
        Map<String, Quantity> capacity = Map.of(
                "memory", new Quantity(memory), "cpu", new Quantity(TrinoConfigMaps.spec(inst).cpu()));
        return new ContainerBuilder()
                .withName("trino")
                .withImage(ctx.trinoImage())
                .addNewPort().withName("http").withContainerPort(TrinoNames.HTTP_PORT).endPort()
                .withEnv(env)
                .withNewResources().withRequests(capacity).withLimits(capacity).endResources()
                // /v1/info answers as soon as the HTTP server is up, while Trino still starts (plugins,
                // catalogs): it only tells that the process lives. Ready is the image's health-check,
                // which waits for "starting": false (as the official chart does); the start takes up to
                // a few minutes.
                .withStartupProbe(healthCheck(5, 60))
                .withLivenessProbe(info(10, 6))
                .withReadinessProbe(healthCheck(5, 3))
                .withSecurityContext(PodSecurity.restrictedContainer())
                .withVolumeMounts(mounts);
    }

    /**
     * The catalog's credentials come from its {@code <catalog>-root-principal} Secret and the S3 keys
     * from the bucket's Secret, by reference; Kubernetes composes {@code $(VAR)} values in the pod.
     */
    private static List<EnvVar> commonEnv(Instance inst, EngineContext ctx) {
        TrinoSpec spec = TrinoConfigMaps.spec(inst);
        String principal = CatalogRef.rootPrincipalSecret(spec.catalog());
        StorageSpec storage = spec.storage();
        List<EnvVar> env = new ArrayList<>(List.of(
                fromSecret("CATALOG_URI", principal, "catalogUri"),
                fromSecret("CATALOG_CLIENT_ID", principal, "clientId"),
                fromSecret("CATALOG_CLIENT_SECRET", principal, "clientSecret"),
                value("CATALOG_CREDENTIAL", "$(CATALOG_CLIENT_ID):$(CATALOG_CLIENT_SECRET)"),
                value("CATALOG_TOKEN_URI", "$(CATALOG_URI)/v1/oauth/tokens"),
                fromSecret("AWS_ACCESS_KEY_ID", storage.credentialsSecret(), InstanceObjects.ACCESS_KEY_ID),
                fromSecret("AWS_SECRET_ACCESS_KEY", storage.credentialsSecret(), InstanceObjects.SECRET_ACCESS_KEY),
                fromSecret("TRINO_SHARED_SECRET", TrinoNames.internal(inst.name()), TrinoSecrets.SHARED_SECRET)));
        env.addAll(InstanceObjects.s3ChecksumEnv(ctx));
        return env;
    }

    private static List<Volume> volumes(Instance inst, EngineContext ctx, String configMap) {
        List<Volume> volumes = new ArrayList<>(List.of(
                new VolumeBuilder().withName("config").withNewConfigMap().withName(configMap).endConfigMap().build(),
                new VolumeBuilder().withName("catalog")
                        .withNewConfigMap().withName(TrinoNames.catalogConfig(inst.name())).endConfigMap().build(),
                new VolumeBuilder().withName("data").withNewEmptyDir().endEmptyDir().build()));
        volumes.addAll(CaBundle.volumes(inst, ctx));
        return volumes;
    }

    private static List<VolumeMount> mounts(EngineContext ctx) {
        List<VolumeMount> mounts = new ArrayList<>(List.of(mount("config", TrinoConfigMaps.CONFIG_DIR),
                mount("catalog", TrinoConfigMaps.CATALOG_DIR),
                new VolumeMountBuilder().withName("data").withMountPath(TrinoConfigMaps.DATA_DIR).build()));
        mounts.addAll(CaBundle.mounts(ctx));
        return mounts;
    }

    private static VolumeMount mount(String volume, String path) {
        return new VolumeMountBuilder().withName(volume).withMountPath(path).withReadOnly(true).build();
    }

    private static Probe info(int periodSeconds, int failureThreshold) {
        return new ProbeBuilder()
                .withNewHttpGet().withPath("/v1/info").withNewPort("http").endHttpGet()
                .withPeriodSeconds(periodSeconds)
                .withFailureThreshold(failureThreshold)
                .withTimeoutSeconds(3)
                .build();
    }

    /** The image's script: it reads the HTTP port from config.properties and checks /v1/info's "starting". */
    private static Probe healthCheck(int periodSeconds, int failureThreshold) {
        return new ProbeBuilder()
                .withNewExec().withCommand(HEALTH_CHECK).endExec()
                .withPeriodSeconds(periodSeconds)
                .withFailureThreshold(failureThreshold)
                .withTimeoutSeconds(5)
                .build();
    }
}
