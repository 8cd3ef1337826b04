package io.lakehouse.engines.kinds.trino;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.reconcile.PropertiesFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Trino's configuration files. Secret values are never written here: the files name environment
 * variables ({@code ${ENV:...}}, resolved by Trino at start) that the pods take from Secrets.
 */
final class TrinoConfigMaps {

    /** The Trino catalog's name: {@code SELECT * FROM lakehouse.<schema>.<table>} whatever the warehouse. */
    static final String CATALOG = "lakehouse";
    static final String CONFIG_DIR = "/etc/trino";
    /** The Trino user of a platform account, the name grants use. */
    static final String PRINCIPAL_FIELD = "preferred_username";
    static final String CATALOG_DIR = "/etc/trino/catalog";
    static final String TLS_DIR = "/etc/trino/tls";
    static final String DATA_DIR = "/data/trino";
    /** The seed's fixed heap: 1.4 GB. */
    static final String HEAP = "1400M";
    /** Query memory per node plus the headroom must stay within the heap, or Trino refuses to start. */
    static final int QUERY_MEMORY_PER_NODE_MB = 900;
    static final int HEAP_HEADROOM_MB = 400;

    private TrinoConfigMaps() {}

    static ConfigMap coordinator(Instance inst, EngineContext ctx, OwnerReference owner) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("coordinator", "true");
        config.put("node-scheduler.include-coordinator", "false");
        config.put("http-server.http.port", String.valueOf(TrinoNames.HTTP_PORT));
        config.put("discovery.uri", "http://localhost:" + TrinoNames.HTTP_PORT);
        config.putAll(memory());
        // OAuth2 requires TLS on the coordinator: HTTPS with the instance's internal certificate,
        // which the gateway verifies; X-Forwarded-* from the gateway give the public callback URL.
        config.put("http-server.https.enabled", "true");
        config.put("http-server.https.port", String.valueOf(TrinoNames.HTTPS_PORT));
        config.put("http-server.https.keystore.path", TLS_DIR + "/keystore.p12");
        config.put("http-server.https.keystore.key", "${ENV:TRINO_KEYSTORE_PASSWORD}");
        config.put("http-server.process-forwarded", "true");
        // OAuth2 for the web UI and --external-authentication clients; JWT for clients that bring a platform token of their own (notebooks and
        // pods of the namespace on https://<name>:8443, SQL clients with --access-token): a token of
        // the realm for the platform's audience, verified against its JWKS, the user being preferred_username as with OAuth2.
        config.put("http-server.authentication.type", "oauth2,jwt");
        config.put("http-server.authentication.oauth2.issuer", "${ENV:OIDC_ISSUER}");
        config.put("http-server.authentication.oauth2.client-id", "${ENV:OIDC_CLIENT_ID}");
        config.put("http-server.authentication.oauth2.client-secret", "${ENV:OIDC_CLIENT_SECRET}");
        config.put("http-server.authentication.oauth2.scopes", "openid,profile");
        config.put("http-server.authentication.oauth2.principal-field", PRINCIPAL_FIELD);
        // Refresh tokens: a web UI or --external-authentication session outlives the access token's few
        // minutes instead of sending the user back to Keycloak each time it expires.
        config.put("http-server.authentication.oauth2.refresh-tokens", "true");
        // No oauth2.groups-field: Trino removed groups from authentication (trinodb/trino#15669) and a real
        // Trino 476 refuses the property (the real-engines check, deploy/local/e2e/real-trino.sh). Groups
        // come from the file group provider instead (group-provider.properties, TrinoAccess).
        config.put("http-server.authentication.jwt.key-file", "${ENV:OIDC_JWKS_URL}");
        config.put("http-server.authentication.jwt.required-issuer", "${ENV:OIDC_ISSUER}");
        // Only tokens meant for the platform's APIs, like every service: an instance's own client gets
        // tokens without this audience (its secret sits in a tenant namespace).
        config.put("http-server.authentication.jwt.required-audience", ctx.apiAudience());
        config.put("http-server.authentication.jwt.principal-field", PRINCIPAL_FIELD);
        config.put("web-ui.authentication.type", "oauth2");
        config.put("internal-communication.shared-secret", "${ENV:TRINO_SHARED_SECRET}");
        Map<String, String> security = new LinkedHashMap<>(); // ordered: the pods' config checksum hashes it
        security.put("access-control.properties", TrinoAccess.properties());
        security.put("group-provider.properties", TrinoAccess.groupProviderProperties());
        return configMap(TrinoNames.coordinatorConfig(inst.name()), TrinoNames.COORDINATOR, inst, ctx, owner, config,
                security);
    }

    static ConfigMap worker(Instance inst, EngineContext ctx, OwnerReference owner) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("coordinator", "false");
        config.put("http-server.http.port", String.valueOf(TrinoNames.HTTP_PORT));
        config.put("discovery.uri", "http://" + inst.name() + ":" + TrinoNames.HTTP_PORT);
        config.putAll(memory());
        config.put("internal-communication.shared-secret", "${ENV:TRINO_SHARED_SECRET}");
        return configMap(TrinoNames.workerConfig(inst.name()), TrinoNames.WORKER, inst, ctx, owner, config, Map.of());
    }

    /**
     * The Iceberg catalog, always {@code lakehouse} (the warehouse is only its property): Polaris' REST API with OAuth2 client credentials
     * of the catalog's root principal, and the bucket's own S3 keys (the catalog vends none).
     */
    static ConfigMap catalog(Instance inst, EngineContext ctx, OwnerReference owner) {
        TrinoSpec spec = spec(inst);
        Map<String, String> props = new LinkedHashMap<>();
        props.put("connector.name", "iceberg");
        props.put("iceberg.catalog.type", "rest");
        props.put("iceberg.rest-catalog.uri", "${ENV:CATALOG_URI}");
        props.put("iceberg.rest-catalog.warehouse", spec.warehouse());
        props.put("iceberg.rest-catalog.security", "OAUTH2");
        props.put("iceberg.rest-catalog.oauth2.credential", "${ENV:CATALOG_CREDENTIAL}");
        props.put("iceberg.rest-catalog.oauth2.scope", "PRINCIPAL_ROLE:ALL");
        props.put("iceberg.rest-catalog.oauth2.server-uri", "${ENV:CATALOG_TOKEN_URI}");
        props.put("iceberg.rest-catalog.vended-credentials-enabled", "false");
        // The native S3 file system: fs.native-s3.enabled up to 480, an alias of fs.s3.enabled from 481.
        props.put("fs.native-s3.enabled", "true");
        props.put("s3.endpoint", spec.storage().endpoint());
        props.put("s3.region", spec.storage().region());
        props.put("s3.path-style-access", String.valueOf(!Boolean.FALSE.equals(spec.storage().pathStyleAccess())));
        props.put("s3.aws-access-key", "${ENV:AWS_ACCESS_KEY_ID}");
        props.put("s3.aws-secret-key", "${ENV:AWS_SECRET_ACCESS_KEY}");
        return new ConfigMapBuilder()
                .withMetadata(InstanceObjects.meta(TrinoNames.catalogConfig(inst.name()), TrinoNames.APP, inst, ctx,
                        "catalog", owner))
                .withData(Map.of(CATALOG + ".properties", PropertiesFiles.render(props)))
                .build();
    }

    /**
     * Per node only: no {@code query.max-memory} from the worker count (Trino's default applies, and each
     * node's limit already bounds a query to workers × per node), so scaling the workers changes neither
     * file nor the pods' config checksum: the coordinator keeps running and only the replicas change.
     */
    private static Map<String, String> memory() {
        Map<String, String> memory = new LinkedHashMap<>();
        memory.put("query.max-memory-per-node", QUERY_MEMORY_PER_NODE_MB + "MB");
        memory.put("memory.heap-headroom-per-node", HEAP_HEADROOM_MB + "MB");
        return memory;
    }

    private static ConfigMap configMap(String name, String component, Instance inst, EngineContext ctx,
            OwnerReference owner, Map<String, String> config, Map<String, String> moreFiles) {
        Map<String, String> node = new LinkedHashMap<>();
        // Same on every node of the instance; Trino allows lowercase letters, digits and '_'.
        node.put("node.environment", "lakehouse");
        node.put("node.data-dir", DATA_DIR);
        node.put("plugin.dir", "/usr/lib/trino/plugin");
        Map<String, String> data = new LinkedHashMap<>();
        data.put("config.properties", PropertiesFiles.render(config));
        data.put("node.properties", PropertiesFiles.render(node));
        data.put("jvm.config", PropertiesFiles.lines(jvm(ctx)));
        data.putAll(moreFiles);
        return new ConfigMapBuilder()
                .withMetadata(InstanceObjects.meta(name, TrinoNames.APP, inst, ctx, component, owner))
                .withData(data)
                .build();
    }

    /**
     * The chart's JVM options with the seed's fixed heap, without its {@code G1HeapRegionSize=32M}: that
     * size suits heaps of tens of GB; on 1.4 GB it leaves about 44 regions and makes every object over
     * 16 MB humongous, so G1 picks the region size from the heap instead.
     */
    private static List<String> jvm(EngineContext ctx) {
        List<String> jvm = new ArrayList<>(List.of("-server", "-agentpath:/usr/lib/trino/bin/libjvmkill.so",
                "-Xmx" + HEAP, "-XX:+UseG1GC", "-XX:+ExplicitGCInvokesConcurrent", "-XX:+HeapDumpOnOutOfMemoryError",
                "-XX:+ExitOnOutOfMemoryError", "-XX:-OmitStackTraceInFastThrow", "-XX:ReservedCodeCacheSize=512M",
                "-XX:PerMethodRecompilationCutoff=10000", "-XX:PerBytecodeRecompilationCutoff=10000",
                "-Djdk.attach.allowAttachSelf=true", "-Djdk.nio.maxCachedBufferSize=2000000",
                "-XX:+EnableDynamicAgentLoading", "-XX:+UnlockDiagnosticVMOptions",
                "-XX:G1NumCollectionsKeepPinned=10000000"));
        // The private CA bundle: OAuth2 discovery/JWKS and S3 use the JDK's default trust.
        jvm.addAll(CaBundle.javaOptions(ctx));
        return jvm;
    }

    static TrinoSpec spec(Instance inst) {
        return (TrinoSpec) inst.spec();
    }
}
