package io.lakehouse.engines.unit.nifi;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.Part;
import io.lakehouse.common.instances.ResourcesSpec;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.common.templates.TemplateField;
import io.lakehouse.engines.kinds.nifi.NifiSpec;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.unit.EngineFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** What the generic service asks of the nifi kind, and the facts the NiFi image's scripts depend on. */
class NifiKindTest {

    private static final EngineContext CTX = EngineFixtures.context();

    @Test
    void itIsTheProcessingTemplateNifiWithAnOidcClient() {
        assertThat(NifiFixtures.KIND.kind()).isEqualTo("nifi");
        assertThat(NifiFixtures.KIND.usesOidcClient()).isTrue();
        assertThat(NifiFixtures.KIND.specType()).isEqualTo(NifiSpec.class);
        assertThat(NifiFixtures.KIND.template().category()).isEqualTo("Processing");
        assertThat(NifiFixtures.KIND.template().fields()).extracting(TemplateField::path).containsExactly(
                "name", "spec.heap", "spec.resources.memory", "spec.resources.cpu", "spec.volumeSize");
        assertThat(NifiFixtures.KIND.template().fields())
                .filteredOn(TemplateField::fixedAtCreation).extracting(TemplateField::path)
                .containsExactly("name", "spec.volumeSize");
    }

    @Test
    void theStatefulSetIsTheServerAndItsLongStartIsExplained() {
        List<Part> parts = NifiFixtures.KIND.parts(NifiFixtures.defaults());

        assertThat(parts).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(ResourceKind.STATEFUL_SET);
            assertThat(p.objectName()).isEqualTo("flows");
            assertThat(p.condition()).isEqualTo("ServerReady");
            assertThat(p.startingMessage()).contains("1 to 3 minutes");
        });
    }

    @Test
    void endpointsAndSecretsForUsers() {
        Instance inst = NifiFixtures.defaults();

        assertThat(NifiFixtures.KIND.endpoints(inst, CTX)).isEqualTo(Map.of(
                "public", "https://flows-team-a.lakehouse.localtest.me/nifi/",
                "internal", "https://flows.team-a.svc:8443/nifi/"));
        assertThat(NifiFixtures.KIND.secrets(inst)).containsExactly("flows-tls");
        assertThat(NifiFixtures.KIND.derivedSuffixes()).contains("-tls", "-nifi", "-oidc", "-instance");
    }

    @Test
    void secretValuesReachNifiOnlyByReference() {
        Map<String, EnvVar> env = env(NifiFixtures.defaults());

        assertThat(secretRefs(env)).isEqualTo(Map.of(
                "NIFI_SENSITIVE_PROPS_KEY", "flows-nifi/sensitive-props-key",
                "KEYSTORE_PASSWORD", "flows-tls/password",
                "TRUSTSTORE_PASSWORD", "flows-tls/password",
                "OIDC_ISSUER", "flows-oidc/issuer",
                "NIFI_SECURITY_USER_OIDC_CLIENT_ID", "flows-oidc/clientId",
                "NIFI_SECURITY_USER_OIDC_CLIENT_SECRET", "flows-oidc/clientSecret"));
        assertThat(env.values()).filteredOn(e -> e.getValueFrom() != null).allSatisfy(e -> {
            assertThat(e.getValue()).isNull();
            assertThat(e.getValueFrom().getSecretKeyRef().getOptional()).isNull();
        });
    }

    @Test
    void theDiscoveryUrlComesFromTheIssuerDefinedBeforeIt() {
        List<String> names = container(NifiFixtures.defaults()).getEnv().stream().map(EnvVar::getName).toList();
        Map<String, EnvVar> env = env(NifiFixtures.defaults());

        assertThat(env.get("NIFI_SECURITY_USER_OIDC_DISCOVERY_URL").getValue())
                .isEqualTo("$(OIDC_ISSUER)/.well-known/openid-configuration");
        assertThat(names.indexOf("OIDC_ISSUER")).isLessThan(names.indexOf("NIFI_SECURITY_USER_OIDC_DISCOVERY_URL"));
        assertThat(names).doesNotHaveDuplicates();
    }

    @Test
    void theDeployerIsTheInitialAdminSignedInByPreferredUsername() {
        Map<String, EnvVar> env = env(NifiFixtures.defaults());

        assertThat(env.get("AUTH").getValue()).isEqualTo("oidc");
        assertThat(env.get("INITIAL_ADMIN_IDENTITY").getValue()).isEqualTo("alice");
        assertThat(env.get("NIFI_SECURITY_USER_OIDC_CLAIM_IDENTIFYING_USER").getValue())
                .isEqualTo("preferred_username");
        assertThat(env.get("NIFI_WEB_PROXY_HOST").getValue())
                .isEqualTo("flows-team-a.lakehouse.localtest.me,flows-team-a.lakehouse.localtest.me:443");
    }

    @Test
    void theHeapIsInJavaNotation() {
        assertThat(env(NifiFixtures.defaults()).get("NIFI_JVM_HEAP_MAX").getValue()).isEqualTo("2048m");
        Instance odd = NifiFixtures.instance(new NifiSpec("1536Mi", new ResourcesSpec("3Gi", "1"), null));
        assertThat(env(odd).get("NIFI_JVM_HEAP_INIT").getValue()).isEqualTo("1536m");
        assertThat(env(odd).get("NIFI_JVM_HEAP_MAX").getValue()).isEqualTo("1536m");
    }

    @Test
    void everyContainerHasEqualRequestsAndLimitsAndTheRestrictedProfile() {
        StatefulSet sts = statefulSet(NifiFixtures.defaults());
        var pod = sts.getSpec().getTemplate().getSpec();

        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(Stream.concat(pod.getInitContainers().stream(), pod.getContainers().stream())).allSatisfy(c -> {
            assertThat(c.getResources().getLimits()).containsOnlyKeys("memory", "cpu");
            assertThat(c.getResources().getRequests()).isEqualTo(c.getResources().getLimits());
            assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
            assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        });
    }

    @Test
    void probesGiveTheFirstStartTenMinutesAndSendANameOfTheCertificate() {
        Container nifi = container(NifiFixtures.defaults());
        var startup = nifi.getStartupProbe();

        assertThat(startup.getPeriodSeconds() * startup.getFailureThreshold()).isEqualTo(600);
        assertThat(startup.getHttpGet().getScheme()).isEqualTo("HTTPS");
        assertThat(startup.getHttpGet().getHttpHeaders()).singleElement()
                .satisfies(h -> assertThat(h.getValue()).isEqualTo("flows.team-a.svc"));
        assertThat(nifi.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/nifi-api/authentication/configuration");
        assertThat(nifi.getLivenessProbe().getTcpSocket()).isNotNull();
    }

    @Test
    void theVolumeHoldsConfAndRepositoriesAndHasTheFixedSize() {
        StatefulSet sts = statefulSet(NifiFixtures.sized());

        assertThat(container(NifiFixtures.sized()).getVolumeMounts()).filteredOn(m -> "data".equals(m.getName()))
                .extracting(m -> m.getSubPath()).contains("conf", "flowfile_repository", "content_repository",
                        "provenance_repository", "database_repository", "state");
        assertThat(sts.getSpec().getVolumeClaimTemplates()).singleElement().satisfies(c -> {
            assertThat(c.getMetadata().getName()).isEqualTo("data");
            assertThat(c.getSpec().getResources().getRequests().get("storage").toString()).isEqualTo("100Gi");
        });
        assertThat(sts.getSpec().getTemplate().getSpec().getInitContainers()).singleElement()
                .satisfies(c -> assertThat(c.getCommand().get(2))
                        .contains("cp -R /opt/nifi/nifi-current/conf conf.tmp")
                        .contains("nifi.provenance.repository.max.storage.size=25600 MB"));
    }

    /** Every directory NiFi writes lives on the volume, the extensions and connector assets too. */
    @Test
    void everyDirectoryNifiWritesIsOnTheVolume() {
        assertThat(container(NifiFixtures.defaults()).getVolumeMounts()).filteredOn(m -> "data".equals(m.getName()))
                .extracting(m -> m.getSubPath() + " -> " + m.getMountPath())
                .contains("python_extensions -> /opt/nifi/nifi-current/python_extensions",
                        "nar_extensions -> /opt/nifi/nifi-current/nar_extensions",
                        "connector_assets -> /opt/nifi/nifi-current/connector_assets",
                        "nar_repository -> /opt/nifi/nifi-current/nar_repository",
                        "assets -> /opt/nifi/nifi-current/assets");
    }

    /**
     * The init container's script, run by sh on a stand-in volume and image: the first start copies the
     * image's conf/, a restart keeps NiFi's edits, a new image refreshes conf/ but keeps the flow, users and
     * policies.
     */
    @Test
    void anImageUpgradeRefreshesConfAndKeepsTheFlow() throws Exception {
        Path root = standIns("nifi-init", "nifi.provenance.repository.max.storage.size=10 GB\n");
        Path image = root.resolve("image/conf");
        Path data = root.resolve("data");
        Files.writeString(image.resolve("authorizers.xml"), "authorizers of 2.11");
        String script = initScript(NifiFixtures.defaults(), CTX, data, image);
        Path conf = data.resolve("conf");

        run(script, "apache/nifi:2.11.0");
        assertThat(Files.readString(conf.resolve("authorizers.xml"))).isEqualTo("authorizers of 2.11");
        assertThat(Files.readString(conf.resolve("nifi.properties"))).contains(
                "nifi.provenance.repository.max.storage.size=2560 MB",
                "nifi.connector.asset.manager.properties.directory=./connector_assets");
        assertThat(data.resolve("python_extensions")).isDirectory();
        assertThat(data.resolve("connector_assets")).isDirectory();

        // NiFi runs: it writes its flow and users and edits its files in place.
        Files.writeString(conf.resolve("flow.json.gz"), "the team's flow");
        Files.writeString(conf.resolve("users.xml"), "the team's users");
        Files.writeString(conf.resolve("authorizers.xml"), "authorizers of 2.11, edited by start.sh");
        run(script, "apache/nifi:2.11.0");
        assertThat(Files.readString(conf.resolve("authorizers.xml"))).isEqualTo("authorizers of 2.11, edited by start.sh");

        Files.writeString(image.resolve("authorizers.xml"), "authorizers of 2.12");
        run(script, "apache/nifi:2.12.0");
        assertThat(Files.readString(conf.resolve("authorizers.xml"))).isEqualTo("authorizers of 2.12");
        assertThat(Files.readString(conf.resolve("flow.json.gz"))).isEqualTo("the team's flow");
        assertThat(Files.readString(conf.resolve("users.xml"))).isEqualTo("the team's users");
        assertThat(Files.readString(conf.resolve(".lakehouse-image"))).isEqualTo("apache/nifi:2.12.0");
        assertThat(data.resolve("conf.old")).doesNotExist();
        assertThat(data.resolve("conf.tmp")).doesNotExist();
    }

    /**
     * With a CA bundle, the init script gives NiFi's JVM the truststore (bootstrap.conf's java.arg lines, on
     * the volume); turned off again, the next start removes them, leaving the image's lines alone.
     */
    @Test
    void theCaBundleTruststoreReachesNifisJvmAndLeavesWhenTurnedOff() throws Exception {
        Path root = standIns("nifi-ca", "");
        Path image = root.resolve("image/conf");
        Path data = root.resolve("data");
        Instance inst = NifiFixtures.defaults();
        String withCa = initScript(inst, EngineFixtures.productionContext(), data, image);
        String withoutCa = initScript(inst, CTX, data, image);
        Path bootstrap = data.resolve("conf/bootstrap.conf");

        run(withCa, "apache/nifi:2.11.0");
        run(withCa, "apache/nifi:2.11.0");
        assertThat(Files.readString(bootstrap)).isEqualTo(BOOTSTRAP
                + "java.arg.lakehouseCa1=-Djavax.net.ssl.trustStore=/lakehouse/truststore/cacerts\n"
                + "java.arg.lakehouseCa2=-Djavax.net.ssl.trustStoreType=PKCS12\n"
                + "java.arg.lakehouseCa3=-Djavax.net.ssl.trustStorePassword=changeit\n");
        run(withoutCa, "apache/nifi:2.11.0");
        assertThat(Files.readString(bootstrap)).isEqualTo(BOOTSTRAP);
    }

    /** A stand-in volume ({@code data}) and image conf/ ({@code image/conf}: nifi.properties, bootstrap.conf). */
    private static Path standIns(String prefix, String nifiProperties) throws java.io.IOException {
        Path root = Files.createTempDirectory(prefix);
        Path image = Files.createDirectories(root.resolve("image/conf"));
        Files.createDirectories(root.resolve("data"));
        Files.writeString(image.resolve("nifi.properties"), nifiProperties);
        Files.writeString(image.resolve("bootstrap.conf"), BOOTSTRAP);
        return root;
    }

    private static final String BOOTSTRAP = "java=java\njava.arg.2=-Xms512m\njava.arg.3=-Xmx512m\n";

    private static String initScript(Instance inst, io.lakehouse.engines.reconcile.EngineContext ctx, Path data,
            Path image) {
        StatefulSet set = NifiFixtures.KIND.objects(inst, ctx, EngineFixtures.owner()).stream()
                .filter(StatefulSet.class::isInstance).map(StatefulSet.class::cast).findFirst().orElseThrow();
        return set.getSpec().getTemplate().getSpec().getInitContainers().get(0).getCommand().get(2)
                .replace("cd /data", "cd " + data).replace("/opt/nifi/nifi-current/conf", image.toString());
    }

    private static void run(String script, String image) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true);
        pb.environment().put("NIFI_IMAGE", image);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
    }

    private static Map<String, String> secretRefs(Map<String, EnvVar> env) {
        return env.values().stream().filter(e -> e.getValueFrom() != null).collect(Collectors.toMap(
                EnvVar::getName, e -> e.getValueFrom().getSecretKeyRef().getName() + "/"
                        + e.getValueFrom().getSecretKeyRef().getKey()));
    }

    private static Map<String, EnvVar> env(Instance inst) {
        return container(inst).getEnv().stream()
                .collect(Collectors.toMap(EnvVar::getName, e -> e));
    }

    private static Container container(Instance inst) {
        return statefulSet(inst).getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static StatefulSet statefulSet(Instance inst) {
        List<HasMetadata> objects = NifiFixtures.KIND.objects(inst, CTX, EngineFixtures.owner());
        return objects.stream().filter(StatefulSet.class::isInstance).map(StatefulSet.class::cast).findFirst()
                .orElseThrow();
    }
}
