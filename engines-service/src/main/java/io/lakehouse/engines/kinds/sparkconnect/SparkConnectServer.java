package io.lakehouse.engines.kinds.sparkconnect;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.kube.Checksums;
import io.lakehouse.common.kube.EnvVars;
import io.lakehouse.common.kube.PodSecurity;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.reconcile.PropertiesFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The Spark Connect server: one pod running Spark in local mode (executors are threads of the
 * driver), and its Service. No Ingress: gRPC, reached from the namespace only.
 */
final class SparkConnectServer {

    /** The apache/spark image runs as user spark, uid/gid 185. */
    static final long UID = 185;
    /** The ConfigMap's file, without secrets. */
    static final String DEFAULTS_DIR = "/etc/spark/defaults";
    /** SPARK_CONF_DIR: the file above plus the properties composed from Secrets, in memory only. */
    static final String CONF_DIR = "/etc/spark/conf";
    static final String WORK_DIR = "/opt/spark/work-dir";
    static final String MAIN_CLASS = "org.apache.spark.sql.connect.service.SparkConnectServer";
    static final String TOKEN_ENV = "SPARK_CONNECT_AUTHENTICATE_TOKEN";

    private SparkConnectServer() {}

    static Deployment deployment(Instance inst, EngineContext ctx, OwnerReference owner) {
        SparkConnectSpec spec = SparkProperties.spec(inst);
        List<Container> containers = new ArrayList<>(List.of(spark(inst, ctx)));
        List<Volume> volumes = new ArrayList<>(List.of(
                new VolumeBuilder().withName("defaults")
                        .withNewConfigMap().withName(SparkConnectNames.conf(inst.name())).endConfigMap().build(),
                new VolumeBuilder().withName("conf").withNewEmptyDir().withMedium("Memory").endEmptyDir().build(),
                new VolumeBuilder().withName("tmp").withNewEmptyDir().endEmptyDir().build(),
                new VolumeBuilder().withName("work").withNewEmptyDir().endEmptyDir().build()));
        volumes.addAll(CaBundle.volumes(inst, ctx));
        if (spec.tokenRequired()) {
            containers.add(TlsProxy.container(inst, ctx));
            volumes.add(TlsProxy.volume(inst));
        }
        String checksum = Checksums.sha256(PropertiesFiles.render(SparkProperties.server(spec, ctx))
                + String.join("", ctx.caCertificates()));
        return new DeploymentBuilder()
                .withMetadata(meta(inst, ctx, owner))
                .withNewSpec()
                    .withReplicas(1)
                    // One Spark per instance: never two drivers side by side during a rollout.
                    .withNewStrategy().withType("Recreate").endStrategy()
                    .withNewSelector()
                        .withMatchLabels(InstanceObjects.selector(SparkConnectNames.APP, inst, SparkConnectNames.SERVER))
                    .endSelector()
                    .withNewTemplate()
                        .withNewMetadata()
                            .withLabels(
                                    InstanceObjects.labels(SparkConnectNames.APP, inst, ctx, SparkConnectNames.SERVER))
                            .withAnnotations(Map.of(InstanceObjects.CONFIG_CHECKSUM, checksum))
                        .endMetadata()
                        .withNewSpec()
                            .withAutomountServiceAccountToken(false)
                            .withSecurityContext(PodSecurity.restrictedPod(UID, UID))
                            .withImagePullSecrets(InstanceObjects.pullSecrets(ctx))
                            .withInitContainers(CaBundle.javaInit(ctx.sparkConnectImage(), ctx))
                            .withContainers(containers)
                            .withVolumes(volumes)
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    private static Container spark(Instance inst, EngineContext ctx) {
        SparkConnectSpec spec = SparkProperties.spec(inst);
        Map<String, Quantity> capacity = Map.of(
                "memory", new Quantity(spec.podMemory()), "cpu", new Quantity(String.valueOf(spec.cores())));
        ContainerBuilder container = new ContainerBuilder()
                .withName("spark-connect")
                .withImage(ctx.sparkConnectImage())
                .withCommand("/bin/sh", "-c", startScript())
                .withEnv(env(inst, ctx));
        if (!spec.tokenRequired()) {
            container.addNewPort().withName("grpc").withContainerPort(SparkConnectNames.GRPC_PORT).endPort();
        }
        return container
                .withNewResources().withRequests(capacity).withLimits(capacity).endResources()
                .withStartupProbe(probe(5, 60))
                .withLivenessProbe(probe(20, 3))
                .withReadinessProbe(probe(10, 3))
                .withSecurityContext(PodSecurity.restrictedContainer())
                .addNewVolumeMount().withName("defaults").withMountPath(DEFAULTS_DIR).withReadOnly(true)
                .endVolumeMount()
                .addNewVolumeMount().withName("conf").withMountPath(CONF_DIR).endVolumeMount()
                .addNewVolumeMount().withName("tmp").withMountPath(SparkProperties.LOCAL_DIR).endVolumeMount()
                .addNewVolumeMount().withName("work").withMountPath(WORK_DIR).endVolumeMount()
                .addAllToVolumeMounts(CaBundle.mounts(ctx))
                .build();
    }

    private static List<EnvVar> env(Instance inst, EngineContext ctx) {
        SparkConnectSpec spec = SparkProperties.spec(inst);
        List<EnvVar> env = new ArrayList<>();
        env.add(EnvVars.value("SPARK_CONF_DIR", CONF_DIR));
        SparkProperties.secretEnv(spec).forEach(e -> env.add(e.envVar()));
        if (spec.tokenRequired()) {
            // Spark's fallback for spark.connect.authenticate.token: the token never enters a file.
            env.add(EnvVars.fromSecret(TOKEN_ENV, SparkConnectNames.platform(inst.name()), SparkConnectSecrets.TOKEN));
        }
        env.addAll(InstanceObjects.s3ChecksumEnv(ctx));
        return env;
    }

    /**
     * Composes spark-defaults.conf from the ConfigMap's file and the properties that come from
     * Secrets (expanded here, in a memory volume readable by the server only, never on a command
     * line), then runs the server in the foreground. A constant script: no user text reaches it.
     */
    static String startScript() {
        String fromEnv = SparkProperties.fromEnv().entrySet().stream()
                .map(e -> "  \"" + e.getKey() + "=" + e.getValue() + "\"")
                .collect(Collectors.joining(" \\\n"));
        return "set -eu\n"
                + "umask 077\n"
                + "conf=\"$SPARK_CONF_DIR/" + SparkConnectConfig.FILE + "\"\n"
                + "cat \"" + DEFAULTS_DIR + "/" + SparkConnectConfig.FILE + "\" > \"$conf\"\n"
                + "printf '%s\\n' \\\n" + fromEnv + " >> \"$conf\"\n"
                + "exec \"$SPARK_HOME/bin/spark-submit\" --class " + MAIN_CLASS + " --name \"Spark Connect server\"\n";
    }

    /** A TCP check on 127.0.0.1, where the server listens in both modes (bash: the image's shell). */
    private static Probe probe(int periodSeconds, int failureThreshold) {
        return new ProbeBuilder()
                .withNewExec()
                    .withCommand("bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/" + SparkConnectNames.GRPC_PORT)
                .endExec()
                .withPeriodSeconds(periodSeconds)
                .withFailureThreshold(failureThreshold)
                .withTimeoutSeconds(3)
                .build();
    }

    /** Only the TLS port when a token is required: the plain one is not reachable from outside the pod. */
    static Service service(Instance inst, EngineContext ctx, OwnerReference owner) {
        boolean tls = SparkProperties.spec(inst).tokenRequired();
        String port = tls ? "grpc-tls" : "grpc";
        return new ServiceBuilder()
                .withMetadata(meta(inst, ctx, owner))
                .withNewSpec()
                    .withType("ClusterIP")
                    .withSelector(InstanceObjects.selector(SparkConnectNames.APP, inst, SparkConnectNames.SERVER))
                    .addNewPort().withName(port)
                        .withPort(tls ? SparkConnectNames.TLS_PORT : SparkConnectNames.GRPC_PORT)
                        .withNewTargetPort(port)
                    .endPort()
                .endSpec()
                .build();
    }

    private static ObjectMeta meta(Instance inst, EngineContext ctx,
            OwnerReference owner) {
        return InstanceObjects.meta(inst.name(), SparkConnectNames.APP, inst, ctx, SparkConnectNames.SERVER, owner);
    }
}
