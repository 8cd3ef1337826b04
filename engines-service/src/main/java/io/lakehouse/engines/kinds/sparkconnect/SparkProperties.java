package io.lakehouse.engines.kinds.sparkconnect;

import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.engines.reconcile.EngineContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Spark configuration of an instance. Secret values are never among these properties: the
 * catalog's credentials reach Spark through {@link #fromEnv()} (composed in the pod at start), and
 * the S3 keys through the AWS SDK's own environment variables, which Iceberg's S3FileIO reads when no
 * key is configured.
 */
final class SparkProperties {

    /** The Spark catalog's name: {@code lakehouse.<namespace>.<table>} in SQL. */
    static final String CATALOG = "lakehouse";
    private static final String CATALOG_PREFIX = "spark.sql.catalog." + CATALOG;
    static final String CATALOG_URI_ENV = "CATALOG_URI";
    static final String CATALOG_CLIENT_ID_ENV = "CATALOG_CLIENT_ID";
    static final String CATALOG_CLIENT_SECRET_ENV = "CATALOG_CLIENT_SECRET";
    static final String LOCAL_DIR = "/tmp";

    private SparkProperties() {}

    /**
     * What every session on the catalog needs: the Connect server and the batch jobs of its profile
     * alike. No vended credentials: the catalog has no STS, Spark uses the bucket's own keys.
     */
    static Map<String, String> session(SparkConnectSpec spec, EngineContext ctx) {
        StorageSpec storage = spec.storage();
        Map<String, String> conf = new LinkedHashMap<>();
        if (!ctx.sparkPackages().isBlank()) {
            conf.put("spark.jars.packages", ctx.sparkPackages());
            // Resolved at start into a writable directory (the root file system is the image's).
            conf.put("spark.jars.ivy", LOCAL_DIR + "/ivy2");
        }
        conf.put("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions");
        // No Hive metastore: the Iceberg catalog is the only one.
        conf.put("spark.sql.catalogImplementation", "in-memory");
        conf.put("spark.sql.defaultCatalog", CATALOG);
        conf.put(CATALOG_PREFIX, "org.apache.iceberg.spark.SparkCatalog");
        conf.put(CATALOG_PREFIX + ".type", "rest");
        conf.put(CATALOG_PREFIX + ".warehouse", spec.warehouse());
        conf.put(CATALOG_PREFIX + ".scope", "PRINCIPAL_ROLE:ALL");
        // Explicit: Iceberg infers OAuth2 from "credential" today and warns that the inference will go away.
        conf.put(CATALOG_PREFIX + ".rest.auth.type", "oauth2");
        conf.put(CATALOG_PREFIX + ".io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
        conf.put(CATALOG_PREFIX + ".s3.endpoint", storage.endpoint());
        boolean pathStyle = !Boolean.FALSE.equals(storage.pathStyleAccess());
        conf.put(CATALOG_PREFIX + ".s3.path-style-access", String.valueOf(pathStyle));
        conf.put(CATALOG_PREFIX + ".client.region", storage.region());
        // Spark's default pattern plus "credential", so the UI, event logs and SET hide the catalog's.
        conf.put("spark.redaction.regex", "(?i)secret|password|token|access[.]?key|credential");
        return conf;
    }

    /** The Connect server's spark-defaults.conf: local mode in the pod, then the session's properties. */
    static Map<String, String> server(SparkConnectSpec spec, EngineContext ctx) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.master", "local[" + spec.cores() + "]");
        // Read by spark-submit itself from spark-defaults.conf: the driver JVM's -Xmx.
        conf.put("spark.driver.memory", SparkMemory.spark(spec.driverMemory()));
        conf.put("spark.local.dir", LOCAL_DIR);
        conf.put("spark.connect.grpc.binding.port", String.valueOf(SparkConnectNames.GRPC_PORT));
        // The UI (4040) is closed to other pods by the NetworkPolicy; even from inside the pod it
        // cannot kill jobs or stages.
        conf.put("spark.ui.killEnabled", "false");
        if (CaBundle.enabled(ctx)) {
            // The driver is the spark-submit JVM (local mode): the launcher adds these to its command.
            conf.put("spark.driver.extraJavaOptions", String.join(" ", CaBundle.javaOptions(ctx)));
        }
        if (spec.tokenRequired()) {
            // Only the TLS proxy of the pod reaches the server (clients send the token over TLS only).
            conf.put("spark.connect.grpc.binding.address", "127.0.0.1");
        }
        conf.putAll(session(spec, ctx));
        return conf;
    }

    /**
     * Properties whose values come from Secrets, as shell words over {@link #secretEnv}'s variables:
     * expanded in the pod at start, never stored.
     */
    static Map<String, String> fromEnv() {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put(CATALOG_PREFIX + ".uri", "${" + CATALOG_URI_ENV + "}");
        conf.put(CATALOG_PREFIX + ".oauth2-server-uri", "${" + CATALOG_URI_ENV + "}/v1/oauth/tokens");
        conf.put(CATALOG_PREFIX + ".credential",
                "${" + CATALOG_CLIENT_ID_ENV + "}:${" + CATALOG_CLIENT_SECRET_ENV + "}");
        return conf;
    }

    /** The catalog's root principal and the bucket's keys, by Secret reference. */
    static List<SecretEnv> secretEnv(SparkConnectSpec spec) {
        String principal = CatalogRef.rootPrincipalSecret(spec.catalog());
        String bucket = spec.storage().credentialsSecret();
        return List.of(
                new SecretEnv(CATALOG_URI_ENV, principal, "catalogUri"),
                new SecretEnv(CATALOG_CLIENT_ID_ENV, principal, "clientId"),
                new SecretEnv(CATALOG_CLIENT_SECRET_ENV, principal, "clientSecret"),
                new SecretEnv(InstanceObjects.ACCESS_KEY_ID, bucket, InstanceObjects.ACCESS_KEY_ID),
                new SecretEnv(InstanceObjects.SECRET_ACCESS_KEY, bucket, InstanceObjects.SECRET_ACCESS_KEY));
    }

    static SparkConnectSpec spec(Instance inst) {
        return (SparkConnectSpec) inst.spec();
    }
}
