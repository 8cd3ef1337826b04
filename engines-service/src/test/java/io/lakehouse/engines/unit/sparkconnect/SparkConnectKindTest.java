package io.lakehouse.engines.unit.sparkconnect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.Part;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.common.testing.GoldenYaml;
import io.lakehouse.engines.kinds.sparkconnect.SparkConnectKind;
import io.lakehouse.engines.kinds.sparkconnect.SparkConnectSpec;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.unit.EngineFixtures;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the generic service reads from the kind: endpoints, parts, Secrets, the job profile, the spec. */
class SparkConnectKindTest {

    private static final SparkConnectKind KIND = SparkConnectFixtures.KIND;
    private static final EngineContext LOCAL = EngineFixtures.context();
    private static final EngineContext PRODUCTION = EngineFixtures.productionContext();

    @Test
    void theKindIsRegisteredAsSparkConnectWithoutAnOidcClient() {
        assertThat(KIND.kind()).isEqualTo("spark-connect");
        assertThat(KIND.specType()).isEqualTo(SparkConnectSpec.class);
        assertThat(KIND.usesOidcClient()).isFalse();
    }

    @Test
    void theInternalEndpointIsTheSparkRemoteWithoutToken() {
        assertThat(KIND.endpoints(SparkConnectFixtures.withoutToken(), LOCAL))
                .isEqualTo(Map.of("internal", "sc://spark.team-a.svc:15002"));
        assertThat(KIND.endpoints(SparkConnectFixtures.defaults(), LOCAL))
                .isEqualTo(Map.of("internal", "sc://spark.team-a.svc:15443/;use_ssl=true"));
        assertThat(KIND.endpoints(SparkConnectFixtures.production(), PRODUCTION))
                .isEqualTo(Map.of("internal", "sc://spark.team-a.svc:15443/;use_ssl=true"));
    }

    /**
     * The default image holds the Iceberg jars: nothing is downloaded at start unless
     * lakehouse.engines.spark-packages asks for it (a plain Spark image), for the server and the job profile.
     */
    @Test
    void sparkDownloadsPackagesOnlyWhenAsked() {
        String packages = "org.apache.iceberg:iceberg-spark-runtime-4.0_2.13:1.10.1,"
                + "org.apache.iceberg:iceberg-aws-bundle:1.10.1";
        Instance inst = SparkConnectFixtures.defaults();
        assertThat(serverConf(inst, LOCAL)).doesNotContain("spark.jars.packages", "spark.jars.ivy");
        assertThat(serverConf(inst, EngineFixtures.context(packages)))
                .contains("spark.jars.packages=" + packages + "\n", "spark.jars.ivy=/tmp/ivy2\n");

        ObjectNode spec = new ObjectMapper().createObjectNode();
        KIND.describe(inst, LOCAL, spec);
        assertThat(spec.path("profile").path("sparkConf").has("spark.jars.packages")).isFalse();
        spec = new ObjectMapper().createObjectNode();
        KIND.describe(inst, EngineFixtures.context(packages), spec);
        assertThat(spec.path("profile").path("sparkConf").path("spark.jars.packages").asText()).isEqualTo(packages);
    }

    private static String serverConf(Instance inst, EngineContext ctx) {
        return KIND.objects(inst, ctx, EngineFixtures.owner()).stream().filter(ConfigMap.class::isInstance)
                .map(o -> ((ConfigMap) o).getData().get("spark-defaults.conf")).findFirst().orElseThrow();
    }

    @Test
    void theServerDeploymentIsTheOnlyPart() {
        assertThat(KIND.parts(SparkConnectFixtures.defaults())).containsExactly(
                Part.of(ResourceKind.DEPLOYMENT, "spark", "ServerReady", "the Spark Connect server"));
    }

    @Test
    void usersNeedTheTokenAndTheCaOnlyWhenATokenIsRequired() {
        assertThat(KIND.secrets(SparkConnectFixtures.withoutToken())).isEmpty();
        assertThat(KIND.generatedSecrets(SparkConnectFixtures.withoutToken(), LOCAL, EngineFixtures.owner())).isEmpty();
        assertThat(KIND.secrets(SparkConnectFixtures.defaults())).containsExactly("spark-platform", "spark-tls");
        assertThat(KIND.secrets(SparkConnectFixtures.production())).containsExactly("spark-platform", "spark-tls");
    }

    @Test
    void theServerListensOnLoopbackBehindTheTlsProxyWhenATokenIsRequired() {
        String plain = sparkDefaults(SparkConnectFixtures.withoutToken(), LOCAL);
        String token = sparkDefaults(SparkConnectFixtures.production(), PRODUCTION);

        assertThat(plain).contains("spark.master=local[2]\n", "spark.driver.memory=2048m\n")
                .doesNotContain("spark.connect.grpc.binding.address");
        assertThat(token).contains("spark.master=local[8]\n", "spark.driver.memory=12288m\n",
                "spark.connect.grpc.binding.address=127.0.0.1\n");
        assertThat(service(SparkConnectFixtures.withoutToken(), LOCAL).getSpec().getPorts())
                .singleElement().satisfies(p -> assertThat(p.getPort()).isEqualTo(15002));
        assertThat(service(SparkConnectFixtures.production(), PRODUCTION).getSpec().getPorts())
                .singleElement().satisfies(p -> assertThat(p.getPort()).isEqualTo(15443));
        assertThat(containers(SparkConnectFixtures.production(), PRODUCTION)).extracting(Container::getName)
                .containsExactly("spark-connect", "tls-proxy");
    }

    /** The Spark UI cannot kill jobs (and the NetworkPolicy keeps it inside the pod). */
    @Test
    void theSparkUiCannotKill() {
        assertThat(sparkDefaults(SparkConnectFixtures.defaults(), LOCAL)).contains("spark.ui.killEnabled=false\n");
        assertThat(sparkDefaults(SparkConnectFixtures.withoutToken(), LOCAL)).contains("spark.ui.killEnabled=false\n");
    }

    /** gRPC clients refuse a TLS server that selects no ALPN protocol: the proxy must announce h2. */
    @Test
    void theTlsProxyAnnouncesHttp2AndForwardsToTheLoopbackServer() throws Exception {
        Container proxy = containers(SparkConnectFixtures.production(), PRODUCTION).get(1);
        List<String> args = proxy.getArgs();
        JsonNode config = new YAMLMapper().readTree(args.get(args.indexOf("--config-yaml") + 1));

        JsonNode listener = config.path("static_resources").path("listeners").get(0);
        assertThat(listener.path("address").path("socket_address").path("port_value").asInt()).isEqualTo(15443);
        JsonNode tls = listener.path("filter_chains").get(0).path("transport_socket").path("typed_config")
                .path("common_tls_context");
        assertThat(tls.path("alpn_protocols")).extracting(JsonNode::asText).containsExactly("h2");
        JsonNode certificate = tls.path("tls_certificates").get(0);
        assertThat(certificate.path("pkcs12").path("filename").asText()).isEqualTo("/etc/envoy/tls/keystore.p12");
        assertThat(certificate.path("password").path("environment_variable").asText()).isEqualTo("KEYSTORE_PASSWORD");
        assertThat(proxy.getEnv()).singleElement().satisfies(e -> {
            assertThat(e.getName()).isEqualTo("KEYSTORE_PASSWORD");
            assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo("spark-tls");
        });
        JsonNode target = config.path("static_resources").path("clusters").get(0).path("load_assignment")
                .path("endpoints").get(0).path("lb_endpoints").get(0).path("endpoint").path("address")
                .path("socket_address");
        assertThat(target.path("address").asText()).isEqualTo("127.0.0.1");
        assertThat(target.path("port_value").asInt()).isEqualTo(15002);
    }

    @Test
    void everyContainerHasEqualRequestsAndLimitsAndTheRestrictedProfile() {
        for (Instance inst : List.of(SparkConnectFixtures.defaults(), SparkConnectFixtures.production())) {
            Deployment deployment = deployment(inst, PRODUCTION);
            assertThat(deployment.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
            assertThat(containers(inst, PRODUCTION)).allSatisfy(c -> {
                assertThat(c.getResources().getLimits()).containsOnlyKeys("memory", "cpu")
                        .isEqualTo(c.getResources().getRequests());
                assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
                assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
            });
        }
        assertThat(containers(SparkConnectFixtures.production(), PRODUCTION).get(0).getResources().getLimits())
                .containsEntry("memory", new Quantity("16Gi"))
                .containsEntry("cpu", new Quantity("8"));
    }

    @Test
    void theStartScriptIsTheSameForEveryInstance() {
        String local = containers(SparkConnectFixtures.defaults(), LOCAL).get(0).getCommand().get(2);
        String production = containers(SparkConnectFixtures.production(), PRODUCTION).get(0).getCommand().get(2);

        assertThat(production).as("no user text reaches the shell").isEqualTo(local)
                .doesNotContain("analytics", "warehouse", "spark-s3");
    }

    @Test
    void noSecretValueLeavesASecret() {
        // The builders never read typed keys, even if a spec still carried them.
        SparkConnectSpec unstripped = SparkConnectFixtures.spec(new SparkConnectSpec(EngineFixtures.CATALOG, null,
                SparkConnectFixtures.inlineKeys(), null, null, null, true));
        Instance inst = EngineFixtures.instance(SparkConnectKind.KIND, "spark", unstripped);
        String token = KIND.generatedSecrets(inst, PRODUCTION, EngineFixtures.owner()).get(0).build().get()
                .getData().get("token");
        ObjectNode described = new ObjectMapper().createObjectNode();
        KIND.describe(inst, PRODUCTION, described);

        String everything = yaml(KIND.objects(inst, PRODUCTION, EngineFixtures.owner())) + described;

        assertThat(everything).doesNotContain(SparkConnectFixtures.ACCESS_KEY, SparkConnectFixtures.SECRET_KEY, token,
                decode(token));
    }

    @Test
    void theJobProfileNamesImageConfigurationAndSecretsByReference() {
        ObjectNode spec = new ObjectMapper().createObjectNode();
        KIND.describe(SparkConnectFixtures.production(), PRODUCTION, spec);
        JsonNode profile = spec.path("profile");

        assertThat(profile.path("image").asText()).isEqualTo("registry.example.org/spark-iceberg:4.0.1");
        assertThat(profile.path("pullSecret").asText()).isEqualTo("registry-pull");
        assertThat(profile.path("sparkConf").path("spark.sql.defaultCatalog").asText()).isEqualTo("lakehouse");
        assertThat(profile.path("sparkConf").path("spark.sql.catalog.lakehouse.warehouse").asText())
                .isEqualTo("analytics");
        assertThat(profile.path("sparkConf").fieldNames()).toIterable()
                .as("server-only properties stay with the server")
                .allSatisfy(key -> assertThat(key).startsWith("spark.").doesNotStartWith("spark.connect.")
                        .isNotIn("spark.master", "spark.driver.memory", "spark.local.dir"));
        assertThat(profile.path("secretEnv")).extracting(e -> e.path("name").asText() + "=" + e.path("secret").asText()
                + "/" + e.path("key").asText()).containsExactly(
                "CATALOG_URI=lakehouse-cat-root-principal/catalogUri",
                "CATALOG_CLIENT_ID=lakehouse-cat-root-principal/clientId",
                "CATALOG_CLIENT_SECRET=lakehouse-cat-root-principal/clientSecret",
                "AWS_ACCESS_KEY_ID=spark-s3/AWS_ACCESS_KEY_ID",
                "AWS_SECRET_ACCESS_KEY=spark-s3/AWS_SECRET_ACCESS_KEY");
        assertThat(profile.path("sparkConfFromEnv").path("spark.sql.catalog.lakehouse.credential").asText())
                .isEqualTo("${CATALOG_CLIENT_ID}:${CATALOG_CLIENT_SECRET}");

        ObjectNode local = new ObjectMapper().createObjectNode();
        KIND.describe(SparkConnectFixtures.defaults(), LOCAL, local);
        assertThat(local.path("profile").path("pullSecret").isNull()).isTrue();
    }

    @Test
    void aRequestSpecIsReadFromJsonAndUnknownFieldsAreRefused() throws Exception {
        ObjectMapper json = new ObjectMapper();
        SparkConnectSpec spec = json.readValue("""
                {"catalog": "cat", "cores": 4, "driverMemory": "4Gi", "requireToken": true,
                 "storage": {"bucket": "b", "endpoint": "http://s3", "region": "r", "credentialsSecret": "k"}}""",
                SparkConnectSpec.class);

        assertThat(spec.catalog()).isEqualTo("cat");
        assertThat(spec.storage().credentialsSecret()).isEqualTo("k");
        assertThat(spec.tokenRequired()).isTrue();
        assertThat(json.writeValueAsString(new SparkConnectSpec("cat", null, null, null, null, null, null)))
                .isEqualTo("{\"catalog\":\"cat\"}");
        assertThatThrownBy(() -> json.readValue("{\"catalog\": \"cat\", \"executors\": 3}", SparkConnectSpec.class))
                .isInstanceOf(UnrecognizedPropertyException.class);
    }

    private static String sparkDefaults(Instance inst, EngineContext ctx) {
        return objects(inst, ctx, ConfigMap.class).getData().get("spark-defaults.conf");
    }

    private static Service service(Instance inst, EngineContext ctx) {
        return objects(inst, ctx, Service.class);
    }

    private static Deployment deployment(Instance inst, EngineContext ctx) {
        return objects(inst, ctx, Deployment.class);
    }

    private static List<Container> containers(Instance inst, EngineContext ctx) {
        return deployment(inst, ctx).getSpec().getTemplate().getSpec().getContainers();
    }

    private static <T extends HasMetadata> T objects(Instance inst, EngineContext ctx, Class<T> type) {
        return KIND.objects(inst, ctx, EngineFixtures.owner()).stream().filter(type::isInstance).map(type::cast)
                .findFirst().orElseThrow();
    }

    private static String yaml(List<HasMetadata> objects) {
        return String.join("\n", GoldenYaml.trees(objects).stream().map(GoldenYaml::yaml).toList());
    }

    private static String decode(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }
}
