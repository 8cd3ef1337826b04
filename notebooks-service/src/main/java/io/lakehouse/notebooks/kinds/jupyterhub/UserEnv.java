package io.lakehouse.notebooks.kinds.jupyterhub;

import static io.lakehouse.common.kube.EnvVars.fromSecret;
import static io.lakehouse.common.kube.EnvVars.value;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.lakehouse.common.storage.StorageSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The environment of every user server: the seed's variables for each bound instance and the
 * bucket, nothing when unset. Secret values only by reference ({@code secretKeyRef}) to the
 * namespace's Secrets, which the pod reads when it starts: a server started after a bound instance
 * was recreated gets its new credentials without any change to the hub.
 *
 * <p>Two values are made of several secret parts; Kubernetes composes them in the pod from the
 * variables before them ({@code $(VAR)}; KubeSpawner orders the list so references resolve):
 * {@code POLARIS_CREDENTIAL} from {@code POLARIS_CLIENT_ID} and {@code POLARIS_CLIENT_SECRET}. The
 * Spark Connect token travels beside {@code SPARK_REMOTE} in {@code SPARK_CONNECT_AUTHENTICATE_TOKEN}
 * (PySpark adds it to a connection string without one, so it never shows in {@code SPARK_REMOTE}),
 * with the CA of the server's TLS proxy for grpcio.
 */
public final class UserEnv {

    /** Iceberg REST scope of the root principal (Polaris: every principal role). */
    public static final String POLARIS_SCOPE = "PRINCIPAL_ROLE:ALL";
    public static final String SPARK_CA_DIR = "/etc/lakehouse/spark-connect";
    static final String SPARK_CA_VOLUME = "spark-connect-ca";
    static final String ACCESS_KEY_ID = "AWS_ACCESS_KEY_ID";
    static final String SECRET_ACCESS_KEY = "AWS_SECRET_ACCESS_KEY";

    private UserEnv() {}

    public static List<EnvVar> of(JupyterHubSpec spec, Bindings bindings) {
        List<EnvVar> env = new ArrayList<>();
        if (bindings.catalog() != null) {
            String principal = bindings.catalog().principalSecret();
            env.add(fromSecret("POLARIS_URI", principal, "catalogUri"));
            env.add(fromSecret("POLARIS_WAREHOUSE", principal, "catalogName"));
            env.add(fromSecret("POLARIS_CLIENT_ID", principal, "clientId"));
            env.add(fromSecret("POLARIS_CLIENT_SECRET", principal, "clientSecret"));
            env.add(value("POLARIS_CREDENTIAL", "$(POLARIS_CLIENT_ID):$(POLARIS_CLIENT_SECRET)"));
            env.add(value("POLARIS_SCOPE", POLARIS_SCOPE));
        }
        if (bindings.trino() != null) {
            env.add(value("TRINO_HOST", bindings.trino().host()));
        }
        Bindings.SparkConnect spark = bindings.sparkConnect();
        if (spark != null) {
            env.add(value("SPARK_REMOTE", spark.remote()));
            if (spark.tokenRequired()) {
                env.add(fromSecret("SPARK_CONNECT_AUTHENTICATE_TOKEN", spark.tokenSecret(), "token"));
            }
            if (spark.caSecret() != null) {
                env.add(value("GRPC_DEFAULT_SSL_ROOTS_FILE_PATH", SPARK_CA_DIR + "/ca.crt"));
            }
        }
        if (bindings.mlflow() != null) {
            env.add(value("MLFLOW_TRACKING_URI", bindings.mlflow().trackingUri()));
        }
        StorageSpec storage = spec.storage();
        if (storage != null) {
            env.add(value("AWS_ENDPOINT_URL", storage.endpoint()));
            env.add(value("AWS_REGION", storage.region()));
            env.add(fromSecret(ACCESS_KEY_ID, storage.credentialsSecret(), ACCESS_KEY_ID));
            env.add(fromSecret(SECRET_ACCESS_KEY, storage.credentialsSecret(), SECRET_ACCESS_KEY));
        }
        return env;
    }

    /** Volumes user servers mount besides their home: the Spark Connect CA, when TLS is on. */
    public static List<Volume> volumes(Bindings bindings) {
        Bindings.SparkConnect spark = bindings.sparkConnect();
        if (spark == null || spark.caSecret() == null) {
            return List.of();
        }
        return List.of(new VolumeBuilder().withName(SPARK_CA_VOLUME)
                .withNewSecret().withSecretName(spark.caSecret())
                    .addNewItem().withKey("ca.crt").withPath("ca.crt").endItem()
                .endSecret().build());
    }

    public static List<VolumeMount> mounts(Bindings bindings) {
        return volumes(bindings).stream()
                .map(v -> new VolumeMountBuilder().withName(v.getName()).withMountPath(SPARK_CA_DIR).withReadOnly(true)
                        .build())
                .toList();
    }
}
