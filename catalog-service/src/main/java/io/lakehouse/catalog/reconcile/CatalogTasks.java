package io.lakehouse.catalog.reconcile;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.lakehouse.catalog.domain.CatalogKind;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.kube.EnvVars;
import io.lakehouse.common.kube.ForeignObjectException;
import io.lakehouse.common.kube.Ownership;
import io.lakehouse.common.kube.PodSecurity;
import io.lakehouse.common.storage.StorageSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The two tasks of a new catalog, as Jobs: realm initialization with the Polaris admin tool, then
 * catalog creation through the management API. Both are idempotent (Polaris ≥ 1.7 skips an already
 * bootstrapped realm; an existing catalog answers 409).
 */
public final class CatalogTasks {

    static final String SCRIPT = "create-catalog.sh";
    static final String CATALOG_JSON = "catalog.json";
    static final String GRANT_JSON = "grant.json";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCRIPT_TEXT = resource("/tasks/" + SCRIPT);
    /** curlimages/curl runs as curl_user (uid 100, gid 101). */
    private static final long CURL_UID = 100;
    private static final long CURL_GID = 101;
    private static final Map<String, Quantity> TASK_CAPACITY =
            Map.of("memory", new Quantity("512Mi"), "cpu", new Quantity("500m"));
    private static final Map<String, Quantity> CURL_CAPACITY =
            Map.of("memory", new Quantity("64Mi"), "cpu", new Quantity("100m"));

    static final String CREDENTIALS_DIR = "/credentials";
    /** The admin tool's credentials file: {@code <realm>: {client-id: ..., client-secret: ...}} (YAML). */
    static final String CREDENTIALS_FILE = CREDENTIALS_DIR + "/bootstrap.yaml";

    /** Annotation of the realm-init Job: the uid of the CloudNativePG Cluster it bootstrapped. */
    public static final String DATABASE_UID = "lakehouse.io/database-uid";

    private CatalogTasks() {}

    /** Whether the realm task's Job is still to be created ({@link #toCreate}). */
    public static boolean realmInitToCreate(Job live, Instance inst, CatalogContext ctx) {
        return toCreate(live, inst, ctx, CatalogLabels.REALM_INIT);
    }

    /** Whether the catalog task's Job is still to be created ({@link #toCreate}). */
    public static boolean catalogInitToCreate(Job live, Instance inst, CatalogContext ctx) {
        return toCreate(live, inst, ctx, CatalogLabels.CATALOG_INIT);
    }

    /**
     * Whether a task's Job is still to be created: not when a Job of its name is there already ({@code live}), which
     * must then be this instance's ({@link ForeignObjectException} otherwise, as its create would have found). A task
     * runs once: its Job is built by the pass that creates it, not again by every pass while it runs.
     */
    private static boolean toCreate(Job live, Instance inst, CatalogContext ctx, String component) {
        if (live == null) {
            return true;
        }
        Ownership.require(CatalogLabels.labels(inst, ctx, component), live);
        return false;
    }

    /**
     * {@code bootstrap} of the realm with the root principal's generated credentials, marked with the uid
     * of the database cluster it initializes (a recreated cluster is empty again). The credentials never
     * appear on a command line (any process of the node can read those): an init container of the same
     * image writes them with bash's builtin printf into a credentials file on a memory-backed volume
     * only this pod sees, and the admin tool reads that file ({@code --credentials-file}, whose realms
     * are the ones bootstrapped).
     */
    public static Job realmInit(Instance inst, CatalogContext ctx, OwnerReference owner, String databaseUid) {
        String secret = CatalogNames.rootPrincipalSecret(inst.name());
        Map<String, Quantity> writerCapacity = Map.of("memory", new Quantity("32Mi"), "cpu", new Quantity("50m"));
        Container writer = new ContainerBuilder()
                .withName("credentials-file")
                .withImage(ctx.adminToolImage())
                .withCommand("bash", "-c", "umask 077; printf '\"%s\":\\n  client-id: \"%s\"\\n  client-secret: \"%s\"\\n' "
                        + "\"$POLARIS_REALM\" \"$POLARIS_CLIENT_ID\" \"$POLARIS_CLIENT_SECRET\" > " + CREDENTIALS_FILE)
                .withEnv(EnvVars.value("POLARIS_REALM", CatalogKind.spec(inst).realm()),
                        EnvVars.fromSecret("POLARIS_CLIENT_ID", secret, CatalogSecrets.CLIENT_ID),
                        EnvVars.fromSecret("POLARIS_CLIENT_SECRET", secret, CatalogSecrets.CLIENT_SECRET))
                .withNewResources().withRequests(writerCapacity).withLimits(writerCapacity).endResources()
                .withSecurityContext(PodSecurity.restrictedContainer())
                .addNewVolumeMount().withName("credentials").withMountPath(CREDENTIALS_DIR).endVolumeMount()
                .build();
        Container container = new ContainerBuilder()
                .withName("bootstrap")
                .withImage(ctx.adminToolImage())
                .withArgs("bootstrap", "--credentials-file=" + CREDENTIALS_FILE)
                .withEnv(PolarisPersistence.env(inst))
                .withNewResources().withRequests(TASK_CAPACITY).withLimits(TASK_CAPACITY).endResources()
                .withSecurityContext(PodSecurity.restrictedContainer())
                .addNewVolumeMount().withName("credentials").withMountPath(CREDENTIALS_DIR).withReadOnly(true)
                .endVolumeMount()
                .build();
        Volume credentials = new VolumeBuilder().withName("credentials")
                .withNewEmptyDir().withMedium("Memory").withSizeLimit(new Quantity("1Mi")).endEmptyDir()
                .build();
        Job job = job(CatalogNames.realmInitJob(inst.name()), inst, ctx, owner, CatalogLabels.REALM_INIT, container,
                List.of(credentials), PolarisServer.UID, PolarisServer.GID);
        job.getSpec().getTemplate().getSpec().setInitContainers(List.of(writer));
        job.getMetadata().setAnnotations(new HashMap<>(Map.of(DATABASE_UID, databaseUid)));
        return job;
    }

    /** The fixed script and the JSON bodies of the management API calls. */
    public static ConfigMap catalogInitConfig(Instance inst, CatalogContext ctx, OwnerReference owner) {
        return new ConfigMapBuilder()
                .withMetadata(CatalogLabels.meta(CatalogNames.catalogInit(inst.name()), inst, ctx,
                        CatalogLabels.CATALOG_INIT, owner))
                .withData(Map.of(
                        SCRIPT, SCRIPT_TEXT,
                        CATALOG_JSON, createCatalogRequest(inst).toPrettyString(),
                        GRANT_JSON, grantRequest().toPrettyString()))
                .build();
    }

    public static Job catalogInit(Instance inst, CatalogContext ctx, OwnerReference owner) {
        String secret = CatalogNames.rootPrincipalSecret(inst.name());
        Container container = new ContainerBuilder()
                .withName("create-catalog")
                .withImage(ctx.curlImage())
                .withCommand("/bin/sh", "/task/" + SCRIPT)
                .withEnv(
                        EnvVars.value("POLARIS_URL", "http://" + CatalogNames.server(inst.name()) + "." + inst.namespace()
                                + ".svc:" + CatalogNames.HTTP_PORT),
                        EnvVars.value("POLARIS_REALM", CatalogKind.spec(inst).realm()),
                        EnvVars.value("POLARIS_CATALOG", CatalogKind.spec(inst).catalogName()),
                        EnvVars.fromSecret("POLARIS_CLIENT_ID", secret, CatalogSecrets.CLIENT_ID),
                        EnvVars.fromSecret("POLARIS_CLIENT_SECRET", secret, CatalogSecrets.CLIENT_SECRET))
                .withNewResources().withRequests(CURL_CAPACITY).withLimits(CURL_CAPACITY).endResources()
                .withSecurityContext(PodSecurity.restrictedContainer())
                .addNewVolumeMount().withName("task").withMountPath("/task").withReadOnly(true).endVolumeMount()
                .build();
        Volume task = new VolumeBuilder().withName("task")
                .withNewConfigMap().withName(CatalogNames.catalogInit(inst.name())).endConfigMap()
                .build();
        return job(CatalogNames.catalogInit(inst.name()), inst, ctx, owner, CatalogLabels.CATALOG_INIT, container,
                List.of(task), CURL_UID, CURL_GID);
    }

    /** {@code CreateCatalogRequest} of the Polaris management API: S3 without STS. */
    static ObjectNode createCatalogRequest(Instance inst) {
        StorageSpec storage = CatalogKind.spec(inst).storage();
        ObjectNode storageInfo = JSON.createObjectNode()
                .put("storageType", "S3")
                .put("region", storage.region())
                .put("endpoint", storage.endpoint())
                .put("pathStyleAccess", storage.pathStyleAccess())
                .put("stsUnavailable", true);
        // default-base-location is not added to allowedLocations automatically: list it.
        storageInfo.putArray("allowedLocations").add(storage.baseLocation());
        ObjectNode catalog = JSON.createObjectNode()
                .put("type", "INTERNAL")
                .put("name", CatalogKind.spec(inst).catalogName());
        catalog.putObject("properties").put("default-base-location", storage.baseLocation());
        catalog.set("storageConfigInfo", storageInfo);
        ObjectNode request = JSON.createObjectNode();
        request.set("catalog", catalog);
        return request;
    }

    /** The engines read and write tables: catalog_admin only manages access and metadata by default. */
    static ObjectNode grantRequest() {
        ObjectNode request = JSON.createObjectNode();
        request.putObject("grant").put("type", "catalog").put("privilege", "CATALOG_MANAGE_CONTENT");
        return request;
    }

    private static Job job(String name, Instance inst, CatalogContext ctx, OwnerReference owner,
            String component, Container container, List<Volume> volumes, long uid, long gid) {
        ObjectMeta meta = CatalogLabels.meta(name, inst, ctx, component, owner);
        return new JobBuilder()
                .withMetadata(meta)
                .withNewSpec()
                    .withBackoffLimit(6)
                    .withActiveDeadlineSeconds(900L)
                    .withTtlSecondsAfterFinished(86_400)
                    .withNewTemplate()
                        .withNewMetadata().withLabels(CatalogLabels.labels(inst, ctx, component)).endMetadata()
                        .withNewSpec()
                            .withRestartPolicy("Never")
                            .withAutomountServiceAccountToken(false)
                            .withSecurityContext(PodSecurity.restrictedPod(uid, gid))
                            .withImagePullSecrets(InstanceObjects.pullSecrets(ctx))
                            .withContainers(container)
                            .withVolumes(volumes)
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    private static String resource(String path) {
        try (InputStream in = CatalogTasks.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
