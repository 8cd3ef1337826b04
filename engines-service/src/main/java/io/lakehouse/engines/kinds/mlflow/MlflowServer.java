package io.lakehouse.engines.kinds.mlflow;

import static io.lakehouse.common.kube.EnvVars.fromSecret;
import static io.lakehouse.common.kube.EnvVars.value;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.kube.CnpgClusters;
import io.lakehouse.common.kube.PodSecurity;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.engines.reconcile.EngineContext;
import java.util.List;
import java.util.Map;

/**
 * The MLflow tracking server (uvicorn, so MLflow's Host-header check applies) and its Service.
 * Artifacts go through the server ({@code --serve-artifacts}): only the server holds S3 keys.
 */
final class MlflowServer {

    /** The image runs as root by default; any non-root user can run MLflow. */
    static final long UID = 1000;
    /** Of PostgreSQL's default 100 connections: the rest stays for the operator, superuser and migrations. */
    static final int CONNECTION_BUDGET = 80;
    static final int ENGINES_PER_WORKER = 2;
    static final int DEFAULT_POOL_SIZE = 5;

    private MlflowServer() {}

    static Deployment deployment(Instance inst, EngineContext ctx, OwnerReference owner) {
        return new DeploymentBuilder()
                .withMetadata(meta(inst, ctx, owner))
                .withNewSpec()
                    .withReplicas(1)
                    .withNewSelector()
                        .withMatchLabels(InstanceObjects.selector(MlflowNames.APP, inst, MlflowNames.SERVER))
                    .endSelector()
                    .withNewTemplate()
                        .withNewMetadata()
                            .withLabels(InstanceObjects.labels(MlflowNames.APP, inst, ctx, MlflowNames.SERVER))
                            .withAnnotations(CaBundle.podAnnotations(ctx))
                        .endMetadata()
                        .withNewSpec()
                            .withAutomountServiceAccountToken(false)
                            .withSecurityContext(PodSecurity.restrictedPod(UID, UID))
                            .withImagePullSecrets(InstanceObjects.pullSecrets(ctx))
                            .withInitContainers(CnpgClusters.waitForPrimary(MlflowNames.database(inst.name()),
                                    ctx.mlflowImage(), CnpgClusters.Shell.PYTHON))
                            // boto3 (artifacts on S3) trusts the private CA through AWS_CA_BUNDLE.
                            .addAllToInitContainers(CaBundle.pythonInit(ctx.mlflowImage(), ctx))
                            .withContainers(container(inst, ctx))
                            .addNewVolume().withName("tmp").withNewEmptyDir().endEmptyDir().endVolume()
                            .addAllToVolumes(CaBundle.volumes(inst, ctx))
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    private static Container container(Instance inst, EngineContext ctx) {
        MlflowSpec spec = (MlflowSpec) inst.spec();
        StorageSpec storage = spec.storage();
        Map<String, Quantity> capacity = Map.of(
                "memory", new Quantity(spec.resources().memory()), "cpu", new Quantity(spec.resources().cpu()));
        return new ContainerBuilder()
                .withName("mlflow")
                .withImage(ctx.mlflowImage())
                .withCommand("mlflow", "server")
                // Separate arguments, no shell; the backend store URI holds a password: env only.
                .withArgs("--serve-artifacts",
                        "--artifacts-destination", spec.artifactsDestination(),
                        "--host", "0.0.0.0",
                        "--port", String.valueOf(MlflowNames.HTTP_PORT),
                        "--workers", String.valueOf(spec.workers()),
                        "--allowed-hosts", String.join(",", allowedHosts(inst, ctx)),
                        // The UI's writes (/ajax-api) carry an Origin header even from its own page: newer
                        // servers refuse origins they were not given.
                        "--cors-allowed-origins", "https://" + ctx.publicHost(inst.name(), inst.namespace()))
                .withEnv(
                        fromSecret("MLFLOW_BACKEND_STORE_URI", MlflowNames.databaseApp(inst.name()), "uri"),
                        fromSecret(InstanceObjects.ACCESS_KEY_ID, storage.credentialsSecret(),
                                InstanceObjects.ACCESS_KEY_ID),
                        fromSecret(InstanceObjects.SECRET_ACCESS_KEY, storage.credentialsSecret(),
                                InstanceObjects.SECRET_ACCESS_KEY),
                        value("MLFLOW_S3_ENDPOINT_URL", storage.endpoint()),
                        value("AWS_DEFAULT_REGION", storage.region()),
                        // No home directory for the pod's user: caches and temporary files go to /tmp.
                        value("HOME", "/tmp"),
                        value("MLFLOW_SQLALCHEMYSTORE_POOL_SIZE", String.valueOf(poolSize(spec.workers()))),
                        value("MLFLOW_SQLALCHEMYSTORE_MAX_OVERFLOW", String.valueOf(maxOverflow(spec.workers()))),
                        // No usage data leaves the cluster (MLflow's telemetry is on by default since 3.2).
                        value("MLFLOW_DISABLE_TELEMETRY", "true"),
                        value("DO_NOT_TRACK", "true"))
                .addAllToEnv(InstanceObjects.s3ChecksumEnv(ctx))
                .addAllToEnv(CaBundle.pythonEnv(ctx))
                .addNewPort().withName("http").withContainerPort(MlflowNames.HTTP_PORT).endPort()
                .withNewResources().withRequests(capacity).withLimits(capacity).endResources()
                // /health is exempt from the Host check; the first start migrates the database.
                .withStartupProbe(probe(5, 60))
                .withLivenessProbe(probe(10, 6))
                .withReadinessProbe(probe(5, 3))
                // Read-only root: MLflow writes only temporary files, to the emptyDir on /tmp.
                .withSecurityContext(new SecurityContextBuilder(PodSecurity.restrictedContainer())
                        .withReadOnlyRootFilesystem(true).build())
                .addNewVolumeMount().withName("tmp").withMountPath("/tmp").endVolumeMount()
                .addAllToVolumeMounts(CaBundle.mounts(ctx))
                .build();
    }

    /**
     * Every worker opens two SQLAlchemy engines (tracking and model registry stores), each with a pool of
     * {@code pool_size + max_overflow} connections (5 + 10 by default): 16 workers would want 480 of the
     * 100 connections CloudNativePG allows. The pools share {@link #CONNECTION_BUDGET} instead.
     */
    static int connectionsPerPool(int workers) {
        return Math.max(1, CONNECTION_BUDGET / (ENGINES_PER_WORKER * workers));
    }

    static int poolSize(int workers) {
        return Math.min(DEFAULT_POOL_SIZE, connectionsPerPool(workers));
    }

    static int maxOverflow(int workers) {
        return connectionsPerPool(workers) - poolSize(workers);
    }

    /**
     * The Host headers MLflow accepts (exact, or fnmatch patterns; a port is part of the header): the
     * Service's names from the namespace and the public host the gateway forwards.
     */
    static List<String> allowedHosts(Instance inst, EngineContext ctx) {
        String name = inst.name();
        String port = ":" + MlflowNames.HTTP_PORT;
        String namespaced = name + "." + inst.namespace();
        return List.of(name, name + port, namespaced, namespaced + port, namespaced + ".svc*",
                ctx.publicHost(name, inst.namespace()));
    }

    private static Probe probe(int periodSeconds, int failureThreshold) {
        return new ProbeBuilder()
                .withNewHttpGet().withPath("/health").withNewPort("http").endHttpGet()
                .withPeriodSeconds(periodSeconds)
                .withFailureThreshold(failureThreshold)
                .withTimeoutSeconds(3)
                .build();
    }

    static Service service(Instance inst, EngineContext ctx, OwnerReference owner) {
        return new ServiceBuilder()
                .withMetadata(meta(inst, ctx, owner))
                .withNewSpec()
                    .withType("ClusterIP")
                    .withSelector(InstanceObjects.selector(MlflowNames.APP, inst, MlflowNames.SERVER))
                    .addNewPort().withName("http").withPort(MlflowNames.HTTP_PORT).withNewTargetPort("http").endPort()
                .endSpec()
                .build();
    }

    static ObjectMeta meta(Instance inst, EngineContext ctx, OwnerReference owner) {
        return InstanceObjects.meta(inst.name(), MlflowNames.APP, inst, ctx, MlflowNames.SERVER, owner);
    }
}
