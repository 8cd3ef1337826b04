package io.lakehouse.engines.kinds.sparkconnect;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.GeneratedSecret;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceKind;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.instances.Part;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.common.templates.Template;
import io.lakehouse.common.validation.Quantities;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.engines.reconcile.EngineContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code spark-connect} template: a Spark server in local mode behind the Spark Connect
 * protocol, with the {@code lakehouse} Iceberg catalog as the default catalog.
 *
 * <h2>How clients of the namespace connect</h2>
 *
 * Use a pyspark-client (or Spark Connect JVM client) of the same minor version as the server, and
 * the instance's {@code internal} endpoint as {@code SPARK_REMOTE}:
 * <pre>{@code
 * spark = SparkSession.builder.remote(os.environ["SPARK_REMOTE"]).getOrCreate()
 * }</pre>
 *
 * <ul>
 *   <li>Without a token: {@code SPARK_REMOTE=sc://<name>.<namespace>.svc:15002}, plain gRPC.
 *   <li>With a token ({@code requireToken}): {@code SPARK_REMOTE=sc://<name>.<namespace>.svc:15443/;use_ssl=true}.
 *       Spark Connect clients send a token only over TLS (a {@code token} parameter turns TLS on), and the
 *       server has no TLS of its own: a TLS proxy in the pod serves port 15443 with an internal
 *       certificate and forwards to the server, which listens on 127.0.0.1 only. So a client needs:
 *       <ul>
 *         <li>the token: key {@code token} of the {@code <name>-platform} Secret, in the environment
 *             variable {@code SPARK_CONNECT_AUTHENTICATE_TOKEN} (PySpark reads it when the connection
 *             string has no {@code token}, which keeps the token out of SPARK_REMOTE), or appended to the
 *             connection string as {@code ;token=<token>} (the JVM client);</li>
 *         <li>the CA that signed the certificate: key {@code ca.crt} of the {@code <name>-tls} Secret,
 *             mounted as a file. PySpark (grpcio) trusts it with
 *             {@code GRPC_DEFAULT_SSL_ROOTS_FILE_PATH=<path to ca.crt>}; JVM clients with the
 *             {@code truststore.p12} key of the same Secret as their trust store
 *             ({@code -Djavax.net.ssl.trustStore=... -Djavax.net.ssl.trustStorePassword=<key password>}).</li>
 *       </ul>
 *       The certificate names {@code <name>}, {@code <name>.<namespace>}, {@code <name>.<namespace>.svc} and
 *       {@code <name>.<namespace>.svc.cluster.local}.
 * </ul>
 *
 * In a pod spec, for the token case:
 * <pre>{@code
 * env:
 *   - {name: SPARK_REMOTE, value: "sc://<name>.<namespace>.svc:15443/;use_ssl=true"}
 *   - name: SPARK_CONNECT_AUTHENTICATE_TOKEN
 *     valueFrom: {secretKeyRef: {name: <name>-platform, key: token}}
 *   - {name: GRPC_DEFAULT_SSL_ROOTS_FILE_PATH, value: /etc/spark-connect/ca.crt}
 * volumes:
 *   - name: spark-connect-ca
 *     secret: {secretName: <name>-tls, items: [{key: ca.crt, path: ca.crt}]}
 * # mounted at /etc/spark-connect
 * }</pre>
 */
public final class SparkConnectKind implements InstanceKind<EngineContext> {

    public static final String KIND = "spark-connect";
    public static final String DEFAULT_WAREHOUSE = "lakehouse";
    public static final int DEFAULT_CORES = 2;
    public static final int MIN_CORES = 1;
    public static final int MAX_CORES = 32;
    public static final String DEFAULT_DRIVER_MEMORY = "2Gi";
    /** driverMemory + 1Gi for the default driver memory. */
    public static final String DEFAULT_POD_MEMORY = "3Gi";
    public static final String MIN_DRIVER_MEMORY = "1Gi";
    public static final String MAX_DRIVER_MEMORY = "255Gi";
    public static final String MIN_POD_MEMORY = "2Gi";
    public static final String MAX_POD_MEMORY = "256Gi";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Template template() {
        return SparkConnectTemplate.TEMPLATE;
    }

    @Override
    public Class<SparkConnectSpec> specType() {
        return SparkConnectSpec.class;
    }

    @Override
    public List<String> derivedSuffixes() {
        return List.of(SparkConnectNames.CONF_SUFFIX, SparkConnectNames.PLATFORM_SUFFIX, SparkConnectNames.TLS_SUFFIX,
                InstanceObjects.ROOT_SUFFIX, InstanceObjects.S3_SUFFIX, CaBundle.SUFFIX);
    }

    @Override
    public Set<String> fixedFields() {
        return Set.of("catalog", "warehouse", "storage");
    }

    @Override
    public boolean usesOidcClient() {
        return false;
    }

    /** Warehouse and bucket from the catalog when known; pod memory from the driver memory. */
    @Override
    public SparkConnectSpec withDefaults(InstanceSpec requested, Optional<CatalogRef> catalog) {
        SparkConnectSpec s = requested == null ? new SparkConnectSpec(null, null, null, null, null, null, null)
                : (SparkConnectSpec) requested;
        String driverMemory = s.driverMemory() == null ? DEFAULT_DRIVER_MEMORY : s.driverMemory();
        return new SparkConnectSpec(s.catalog(),
                s.warehouse() != null ? s.warehouse() : catalog.map(CatalogRef::catalogName).orElse(DEFAULT_WAREHOUSE),
                s.storage() != null ? s.storage().withDefaults() : catalog.map(CatalogRef::storage).orElse(null),
                s.cores() == null ? DEFAULT_CORES : s.cores(),
                driverMemory,
                s.podMemory() != null ? s.podMemory() : defaultPodMemory(driverMemory),
                // A token by default: the server runs arbitrary code with the catalog's root principal.
                s.requireToken() == null || s.requireToken());
    }

    /** driverMemory + 1Gi; the default when driverMemory is no quantity (its own rule reports it). */
    private static String defaultPodMemory(String driverMemory) {
        return Quantities.parse(driverMemory).map(SparkMemory::withHeadroom).map(SparkMemory::quantity)
                .orElse(DEFAULT_POD_MEMORY);
    }

    @Override
    public void checkCreate(Violations v, String name, String namespace, InstanceSpec spec) {
        SparkConnectRules.checkCreate(v, name, namespace, derivedSuffixes(), (SparkConnectSpec) spec);
    }

    @Override
    public void checkCapacity(Violations v, InstanceSpec spec) {
        SparkConnectRules.checkCapacity(v, (SparkConnectSpec) spec);
    }

    @Override
    public List<GeneratedSecret> generatedSecrets(Instance inst, EngineContext ctx, OwnerReference owner) {
        if (!SparkProperties.spec(inst).tokenRequired()) {
            return List.of();
        }
        return List.of(
                new GeneratedSecret(SparkConnectNames.platform(inst.name()),
                        () -> SparkConnectSecrets.platform(inst, ctx, owner)),
                new GeneratedSecret(SparkConnectNames.tls(inst.name()),
                        () -> SparkConnectSecrets.tls(inst, ctx, owner)));
    }

    @Override
    public List<HasMetadata> objects(Instance inst, EngineContext ctx, OwnerReference owner) {
        List<HasMetadata> objects = new ArrayList<>(List.of(
                SparkConnectConfig.of(inst, ctx, owner),
                SparkConnectServer.deployment(inst, ctx, owner),
                SparkConnectServer.service(inst, ctx, owner),
                // Only the client port: the Spark UI (4040) is not reachable from other pods; no public route.
                InstanceObjects.networkPolicy(SparkConnectNames.APP, inst, ctx, owner,
                        List.of(SparkProperties.spec(inst).tokenRequired() ? SparkConnectNames.TLS_PORT
                                : SparkConnectNames.GRPC_PORT), List.of())));
        objects.addAll(CaBundle.configMaps(SparkConnectNames.APP, inst, ctx, owner));
        return objects;
    }

    @Override
    public List<Part> parts(Instance inst) {
        return List.of(Part.of(ResourceKind.DEPLOYMENT, inst.name(), "ServerReady", "the Spark Connect server"));
    }

    /** {@code internal}: the SPARK_REMOTE value for clients of the namespace, never with the token. */
    @Override
    public Map<String, String> endpoints(Instance inst, EngineContext ctx) {
        String host = inst.name() + "." + inst.namespace() + ".svc";
        return Map.of("internal", SparkProperties.spec(inst).tokenRequired()
                ? "sc://" + host + ":" + SparkConnectNames.TLS_PORT + "/;use_ssl=true"
                : "sc://" + host + ":" + SparkConnectNames.GRPC_PORT);
    }

    @Override
    public List<String> secrets(Instance inst) {
        return SparkProperties.spec(inst).tokenRequired()
                ? List.of(SparkConnectNames.platform(inst.name()), SparkConnectNames.tls(inst.name()))
                : List.of();
    }

    @Override
    public void describe(Instance inst, EngineContext ctx, ObjectNode spec) {
        JobProfile.describe(inst, ctx, spec);
    }
}
