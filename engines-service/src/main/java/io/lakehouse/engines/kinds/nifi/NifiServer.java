package io.lakehouse.engines.kinds.nifi;

import static io.lakehouse.common.kube.EnvVars.value;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.instances.ResourcesSpec;
import io.lakehouse.common.kube.PodSecurity;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.tls.TlsSecrets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The NiFi node: a StatefulSet of one pod (no ZooKeeper, no cluster) whose single volume holds
 * {@code conf/} (flow, users, policies), the repositories and the local state.
 */
final class NifiServer {

    /** The apache/nifi image runs as user nifi, uid/gid 1000. */
    static final long UID = 1000;
    /** flow.json.gz, users.xml, authorizations.xml and the files start.sh edits. */
    static final String CONF = "conf";
    /**
     * Every directory NiFi writes besides conf/: the repositories, the local state, the NARs and assets
     * uploaded from the UI, the Python and NAR extensions (the image's volumes) and the connector assets.
     */
    static final List<String> DATA_DIRS = List.of("state", "database_repository", "flowfile_repository",
            "content_repository", "provenance_repository", "nar_repository", "assets", "python_extensions",
            "nar_extensions", "connector_assets");
    /** Not in the image's nifi.properties with a path of ours: set on the volume explicitly. */
    static final String CONNECTOR_ASSETS = "nifi.connector.asset.manager.properties.directory";
    /** What the flow, the users and the policies are: kept when conf/ is refreshed from a new image. */
    static final List<String> KEPT_CONF = List.of("flow.json.gz", "flow.xml.gz", "users.xml", "authorizations.xml",
            "archive");
    /** In conf/ on the volume: the image its files come from. */
    static final String IMAGE_MARKER = ".lakehouse-image";
    /** The volume as the init container sees it. */
    static final String INIT_DATA_DIR = "/data";
    /** NiFi's default provenance cap (10 GB) would fill a small volume that also holds the content. */
    static final String PROVENANCE_CAP = "nifi.provenance.repository.max.storage.size";
    static final int PROVENANCE_SHARE_PERCENT = 25;
    static final String BOOTSTRAP = CONF + "/bootstrap.conf";
    /** bootstrap.conf's keys of the lakehouse's own JVM options. */
    static final String JAVA_ARG_PREFIX = "java.arg.lakehouseCa";
    private static final Map<String, Quantity> INIT_CAPACITY =
            Map.of("memory", new Quantity("128Mi"), "cpu", new Quantity("100m"));

    private NifiServer() {}

    static StatefulSet statefulSet(Instance inst, EngineContext ctx, OwnerReference owner) {
        String name = inst.name();
        return new StatefulSetBuilder()
                .withMetadata(InstanceObjects.meta(name, NifiNames.APP, inst, ctx, NifiNames.SERVER, owner))
                .withNewSpec()
                    .withReplicas(1)
                    .withServiceName(name)
                    .withNewSelector()
                        .withMatchLabels(InstanceObjects.selector(NifiNames.APP, inst, NifiNames.SERVER))
                    .endSelector()
                    .withNewTemplate()
                        .withNewMetadata()
                            .withLabels(InstanceObjects.labels(NifiNames.APP, inst, ctx, NifiNames.SERVER))
                            .withAnnotations(CaBundle.podAnnotations(ctx))
                        .endMetadata()
                        .withNewSpec()
                            .withAutomountServiceAccountToken(false)
                            .withSecurityContext(podSecurity())
                            .withImagePullSecrets(InstanceObjects.pullSecrets(ctx))
                            .withInitContainers(initConf(inst, ctx))
                            .addAllToInitContainers(CaBundle.javaInit(ctx.nifiImage(), ctx))
                            .withContainers(nifi(inst, ctx))
                            .withVolumes(volumes(inst))
                            .addAllToVolumes(CaBundle.volumes(inst, ctx))
                        .endSpec()
                    .endTemplate()
                    .withVolumeClaimTemplates(claim(inst, ctx))
                    // Retained: the flows live on the volume, so deleting the StatefulSet (by hand, or by garbage
                    // collection after the root object went) must not take it; the instance's delete removes it.
                    .withNewPersistentVolumeClaimRetentionPolicy()
                        .withWhenDeleted("Retain").withWhenScaled("Retain")
                    .endPersistentVolumeClaimRetentionPolicy()
                .endSpec()
                .build();
    }

    /** Restricted; the fsGroup change only when the root differs: the repositories hold many files. */
    private static PodSecurityContext podSecurity() {
        return new PodSecurityContextBuilder(PodSecurity.restrictedPod(UID, UID))
                .withFsGroupChangePolicy("OnRootMismatch")
                .build();
    }

    /**
     * start.sh edits conf/ in place at every start, so conf/ must be writable and kept on the volume.
     * It is copied from the image on the first start and again whenever the image changes (the marker
     * names the image it came from), keeping the flow, users, policies and flow archive: an upgrade gets
     * the new version's files instead of the first copy's. Renames make each step all-or-nothing, and a
     * start interrupted between two renames finds conf.old back. The subPath directories are made here,
     * as uid 1000: the kubelet would make them as root.
     */
    private static Container initConf(Instance inst, EngineContext ctx) {
        return new ContainerBuilder()
                .withName("init-conf")
                .withImage(ctx.nifiImage())
                .withCommand("sh", "-c", initScript(inst, ctx))
                .withEnv(value("NIFI_IMAGE", ctx.nifiImage()))
                .withNewResources().withRequests(INIT_CAPACITY).withLimits(INIT_CAPACITY).endResources()
                .withSecurityContext(PodSecurity.restrictedContainer())
                .addNewVolumeMount().withName(NifiNames.CLAIM).withMountPath(INIT_DATA_DIR).endVolumeMount()
                .build();
    }

    /**
     * A constant script but for the provenance cap (a number): no user text reaches it. The JVM options
     * of the CA bundle go to bootstrap.conf ({@code java.arg.*} lines, NiFi's way to pass JVM options;
     * OIDC's default truststore strategy JDK and the flows' S3 clients use the JDK's default trust);
     * conf/ stays on the volume, so earlier ones are removed first (the bundle may have been turned off).
     */
    static String initScript(Instance inst, EngineContext ctx) {
        String home = NifiNames.NIFI_HOME + "/" + CONF;
        return String.join("\n",
                "set -e",
                "cd " + INIT_DATA_DIR,
                "mkdir -p " + String.join(" ", DATA_DIRS),
                "if [ ! -d " + CONF + " ] && [ -d " + CONF + ".old ]; then mv " + CONF + ".old " + CONF + "; fi",
                "if [ ! -d " + CONF + " ] || [ \"$(cat " + CONF + "/" + IMAGE_MARKER + " 2>/dev/null)\" != \"$NIFI_IMAGE\" ]; then",
                "  rm -rf " + CONF + ".tmp " + CONF + ".old",
                "  cp -R " + home + " " + CONF + ".tmp",
                "  if [ -d " + CONF + " ]; then",
                "    for kept in " + String.join(" ", KEPT_CONF) + "; do",
                "      if [ -e " + CONF + "/$kept ]; then rm -rf " + CONF + ".tmp/$kept; cp -Rp " + CONF + "/$kept "
                        + CONF + ".tmp/$kept; fi",
                "    done",
                "  fi",
                "  printf '%s' \"$NIFI_IMAGE\" > " + CONF + ".tmp/" + IMAGE_MARKER,
                "  if [ -d " + CONF + " ]; then mv " + CONF + " " + CONF + ".old; fi",
                "  mv " + CONF + ".tmp " + CONF,
                "  rm -rf " + CONF + ".old",
                "fi",
                setProperty(PROVENANCE_CAP, provenanceCap(inst)),
                setProperty(CONNECTOR_ASSETS, "./connector_assets"),
                "sed -i '/^" + JAVA_ARG_PREFIX + "/d' " + BOOTSTRAP)
                + javaArgs(ctx);
    }

    /** The CA bundle's JVM options as bootstrap.conf lines appended by the init script; none without one. */
    private static String javaArgs(EngineContext ctx) {
        List<String> options = CaBundle.javaOptions(ctx);
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < options.size(); i++) {
            lines.append("\necho '").append(JAVA_ARG_PREFIX).append(i + 1).append('=').append(options.get(i))
                    .append("' >> ").append(BOOTSTRAP);
        }
        return lines.toString();
    }

    /** Replaces the property's line of nifi.properties, or appends it. */
    private static String setProperty(String key, String value) {
        String file = CONF + "/nifi.properties";
        return "if grep -q '^" + key + "=' " + file + "; then sed -i 's|^" + key + "=.*|" + key + "=" + value + "|' "
                + file + "; else echo '" + key + "=" + value + "' >> " + file + "; fi";
    }

    /** A share of the volume, in NiFi's data size notation. */
    static String provenanceCap(Instance inst) {
        long volume = ByteSizes.mebibytes(((NifiSpec) inst.spec()).volumeSize());
        return Math.max(1, volume * PROVENANCE_SHARE_PERCENT / 100) + " MB";
    }

    private static Container nifi(Instance inst, EngineContext ctx) {
        ResourcesSpec resources = ((NifiSpec) inst.spec()).resources();
        Map<String, Quantity> capacity = Map.of(
                "memory", new Quantity(resources.memory()), "cpu", new Quantity(resources.cpu()));
        String probeHost = NifiNames.serviceHost(inst.name(), inst.namespace());
        return new ContainerBuilder()
                .withName("nifi")
                .withImage(ctx.nifiImage())
                .addNewPort().withName("https").withContainerPort(NifiNames.HTTPS_PORT).endPort()
                .withEnv(NifiEnv.of(inst, ctx))
                // For the flows' S3 processors (AWS SDK v2).
                .addAllToEnv(InstanceObjects.s3ChecksumEnv(ctx))
                .withNewResources().withRequests(capacity).withLimits(capacity).endResources()
                // The first start loads every extension: 1 to 3 minutes, up to 10 on a slow node.
                .withStartupProbe(httpProbe(probeHost, 10, 60))
                .withReadinessProbe(httpProbe(probeHost, 10, 3))
                // Only a server that stopped accepting connections is restarted, not a busy one.
                .withLivenessProbe(new ProbeBuilder()
                        .withNewTcpSocket().withNewPort("https").endTcpSocket()
                        .withPeriodSeconds(20).withFailureThreshold(6).withTimeoutSeconds(5)
                        .build())
                .withSecurityContext(PodSecurity.restrictedContainer())
                .withVolumeMounts(mounts())
                .addAllToVolumeMounts(CaBundle.mounts(ctx))
                .build();
    }

    /**
     * An endpoint NiFi serves without authentication. The Host header must be a name of the
     * certificate: Jetty answers 400 to a request for the pod's IP (SNI host check).
     */
    private static Probe httpProbe(String host, int periodSeconds, int failureThreshold) {
        return new ProbeBuilder()
                .withNewHttpGet()
                    .withScheme("HTTPS")
                    .withPath("/nifi-api/authentication/configuration")
                    .withNewPort("https")
                    .addNewHttpHeader().withName("Host").withValue(host).endHttpHeader()
                .endHttpGet()
                .withPeriodSeconds(periodSeconds)
                .withFailureThreshold(failureThreshold)
                .withTimeoutSeconds(5)
                .build();
    }

    private static List<VolumeMount> mounts() {
        List<VolumeMount> mounts = new ArrayList<>();
        mounts.add(onVolume(CONF));
        DATA_DIRS.forEach(dir -> mounts.add(onVolume(dir)));
        mounts.add(new VolumeMountBuilder().withName("tls").withMountPath(NifiNames.TLS_DIR).withReadOnly(true)
                .build());
        mounts.add(new VolumeMountBuilder().withName("logs").withMountPath(NifiNames.NIFI_HOME + "/logs").build());
        return mounts;
    }

    /** A directory of the volume over the image's directory of the same name. */
    private static VolumeMount onVolume(String dir) {
        return new VolumeMountBuilder().withName(NifiNames.CLAIM).withSubPath(dir)
                .withMountPath(NifiNames.NIFI_HOME + "/" + dir).build();
    }

    /** Only the two stores of the generated Secret, readable by the group only; logs off the volume. */
    private static List<Volume> volumes(Instance inst) {
        return List.of(
                new VolumeBuilder().withName("tls")
                        .withNewSecret().withSecretName(NifiNames.tls(inst.name())).withDefaultMode(0440)
                            .addNewItem().withKey(TlsSecrets.KEYSTORE).withPath(TlsSecrets.KEYSTORE).endItem()
                            .addNewItem().withKey(TlsSecrets.TRUSTSTORE).withPath(TlsSecrets.TRUSTSTORE).endItem()
                        .endSecret()
                        .build(),
                new VolumeBuilder().withName("logs").withNewEmptyDir().endEmptyDir().build());
    }

    /** Its size is fixed: a StatefulSet's claim templates cannot change. */
    private static PersistentVolumeClaim claim(Instance inst, EngineContext ctx) {
        return new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                    .withName(NifiNames.CLAIM)
                    .withLabels(InstanceObjects.selector(NifiNames.APP, inst, NifiNames.SERVER))
                .endMetadata()
                .withNewSpec()
                    .withAccessModes("ReadWriteOnce")
                    .withStorageClassName(ctx.storageClass())
                    .withNewResources()
                        .withRequests(Map.of("storage", new Quantity(((NifiSpec) inst.spec()).volumeSize())))
                    .endResources()
                .endSpec()
                .build();
    }
}
