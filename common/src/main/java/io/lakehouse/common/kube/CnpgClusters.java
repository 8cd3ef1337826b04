package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A single-instance CloudNativePG {@code Cluster} with one application database. The operator
 * writes the application user's {@code <cluster>-app} Secret (keys username, password, uri,
 * jdbc-uri, ...), which the application reads by reference; its {@code <cluster>-rw} Service leads to
 * the primary once it accepts connections ({@link #READ_WRITE_SUFFIX}).
 */
public final class CnpgClusters {

    /** The read-write Service of a cluster: {@code <cluster>-rw}, port {@link #PORT}. */
    public static final String READ_WRITE_SUFFIX = "-rw";
    public static final int PORT = 5432;

    private CnpgClusters() {}

    /**
     * @param storageClass the volume's class, or null for the cluster default
     * @param image the PostgreSQL operand image, or null for the operator default
     * @param pullSecret the registry Secret of the operand image, or null
     */
    public static GenericKubernetesResource of(ObjectMeta meta, String database, String owner, String storageSize,
            String storageClass, String image, String pullSecret) {
        Map<String, Object> storage = new LinkedHashMap<>();
        // The CRD does not require a size, but CloudNativePG's webhook refuses a Cluster without one.
        storage.put("size", storageSize);
        if (storageClass != null) {
            storage.put("storageClass", storageClass);
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("instances", 1);
        if (image != null) {
            spec.put("imageName", image);
        }
        if (pullSecret != null) {
            spec.put("imagePullSecrets", List.of(Map.of("name", pullSecret)));
        }
        // One instance cannot be moved while it serves: the PodDisruptionBudget CloudNativePG makes for its
        // primary would block every node drain, so single-instance clusters go without one.
        spec.put("enablePDB", false);
        spec.put("storage", storage);
        spec.put("bootstrap", Map.of("initdb", Map.of("database", database, "owner", owner)));
        spec.put("resources", Map.of(
                "requests", Map.of("memory", "256Mi", "cpu", "100m"),
                "limits", Map.of("memory", "512Mi", "cpu", "500m")));
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(ResourceKind.CNPG_CLUSTER.apiVersion())
                .withKind(ResourceKind.CNPG_CLUSTER.kind())
                .withMetadata(meta)
                .withAdditionalProperties(Map.of("spec", spec))
                .build();
    }

    /** What the application's own image offers to open a TCP connection with. */
    public enum Shell {
        /** {@code bash}'s {@code /dev/tcp} (e.g. the UBI-based Polaris image). */
        BASH,
        /** {@code python3}'s socket module (e.g. the MLflow image). */
        PYTHON
    }

    /**
     * An init container that waits until the cluster's {@code -rw} Service accepts connections: it leads
     * to the primary only once the operator marks it ready, so the application starts on a database that
     * answers instead of crash-looping while CloudNativePG initializes it. It runs the application's own
     * image (no further image to mirror or pull) and prints what it waits for.
     */
    public static Container waitForPrimary(String cluster, String image, Shell shell) {
        String host = cluster + READ_WRITE_SUFFIX;
        List<String> command = switch (shell) {
            case BASH -> List.of("bash", "-c", "until (exec 3<>/dev/tcp/" + host + "/" + PORT + ") 2>/dev/null; "
                    + "do echo 'waiting for the database " + host + ":" + PORT + "'; sleep 2; done");
            case PYTHON -> List.of("python3", "-c", "import socket, time\n"
                    + "while True:\n"
                    + "    try:\n"
                    + "        socket.create_connection(('" + host + "', " + PORT + "), 3).close()\n"
                    + "        break\n"
                    + "    except OSError:\n"
                    + "        print('waiting for the database " + host + ":" + PORT + "', flush=True)\n"
                    + "        time.sleep(2)\n");
        };
        Map<String, Quantity> capacity = Map.of("memory", new Quantity("128Mi"), "cpu", new Quantity("50m"));
        return new ContainerBuilder()
                .withName("wait-for-database")
                .withImage(image)
                .withCommand(command)
                .withNewResources().withRequests(capacity).withLimits(capacity).endResources()
                .withSecurityContext(PodSecurity.restrictedContainer())
                .build();
    }
}
