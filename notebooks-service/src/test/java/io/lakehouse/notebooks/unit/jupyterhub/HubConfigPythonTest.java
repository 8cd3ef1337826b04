package io.lakehouse.notebooks.unit.jupyterhub;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakehouse.notebooks.kinds.jupyterhub.Bindings;
import io.lakehouse.notebooks.kinds.jupyterhub.HubConfig;
import io.lakehouse.notebooks.kinds.jupyterhub.HubInstance;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated {@code jupyterhub_config.py} run by the machine's Python the way JupyterHub loads it
 * ({@code src/test/python/load_hub_config.py}, traitlets' Config when installed): it must compile and
 * run, and every {@code c.<Class>.<trait>} it sets must be a configurable trait of the versions the hub
 * image bundles ({@code src/test/resources/jupyterhub/hub-traits.txt}: jupyterhub 5.5.0, kubespawner
 * 7.0.0, oauthenticator 17.4.0 of quay.io/jupyterhub/k8s-hub:4.4.0, read from their sources by
 * {@code src/test/python/extract_traits.py}). A misspelt trait would be ignored by JupyterHub with a
 * warning only; here it fails. Skipped on a machine without Python (property {@code lakehouse.python}).
 */
class HubConfigPythonTest {

    static final String ISSUER = "https://sso.example.org/realms/lakehouse/";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void everyTraitTheConfigSetsExistsInTheHubImagesVersions() throws Exception {
        Set<String> known = knownTraits();
        for (JsonNode loaded : List.of(load(HubFixtures.defaults(), Bindings.NONE),
                load(HubFixtures.wired(), HubFixtures.wiredBindings()))) {
            assertThat(setTraits(loaded)).isNotEmpty().allSatisfy(t -> assertThat(known).as("known traits").contains(t));
            // The culler's options too (python3 -m jupyterhub_idle_culler --option=value ...).
            JsonNode command = loaded.path("traits").path("JupyterHub").path("services").get(0).path("command");
            List<String> options = new ArrayList<>();
            command.forEach(a -> {
                if (a.asText().startsWith("--")) {
                    options.add("idle-culler." + a.asText().replaceAll("=.*", ""));
                }
            });
            assertThat(options).hasSize(4).allSatisfy(o -> assertThat(known).as("culler options").contains(o));
        }
    }

    @Test
    void theConfigSetsWhatTheTemplatePromises() throws Exception {
        JsonNode traits = load(HubFixtures.wired(), HubFixtures.wiredBindings()).path("traits");
        JsonNode auth = traits.path("GenericOAuthenticator");
        assertThat(auth.path("authorize_url").asText())
                .isEqualTo("https://sso.example.org/realms/lakehouse/protocol/openid-connect/auth");
        assertThat(auth.path("oauth_callback_url").asText())
                .isEqualTo("https://notebooks-team-a.data.example.com/hub/oauth_callback");
        assertThat(traits.path("Authenticator").path("admin_users").toString()).isEqualTo("[\"alice\"]");
        assertThat(traits.path("JupyterHub").path("authenticator_class").asText())
                .isEqualTo("<class LakehouseAuthenticator>");
        assertThat(traits.path("JupyterHub").path("load_roles").toString()).isEqualTo(
                "[{\"name\":\"idle-culler\",\"scopes\":[\"list:users\",\"read:users:activity\",\"read:servers\","
                        + "\"delete:servers\"],\"services\":[\"idle-culler\"]}]");
        assertThat(traits.path("JupyterHub").path("services").get(0).path("command").toString())
                .contains("\"--timeout=3600\"").doesNotContain("cull-users");
        JsonNode spawner = traits.path("KubeSpawner");
        assertThat(spawner.path("pod_name_template").asText()).isEqualTo("jupyter-notebooks-{user_server}");
        assertThat(spawner.path("delete_pvc").asBoolean(true)).isFalse();
        assertThat(spawner.path("modify_pod_hook").asText()).isEqualTo("<function owned_by_instance>");
        assertThat(spawner.path("mem_limit").asLong()).isEqualTo(8L << 30);
        assertThat(names(spawner.path("environment"))).containsExactlyInAnyOrder(
                "POLARIS_URI", "POLARIS_WAREHOUSE", "POLARIS_CLIENT_ID", "POLARIS_CLIENT_SECRET", "POLARIS_CREDENTIAL",
                "POLARIS_SCOPE", "TRINO_HOST", "SPARK_REMOTE", "SPARK_CONNECT_AUTHENTICATE_TOKEN",
                "GRPC_DEFAULT_SSL_ROOTS_FILE_PATH", "MLFLOW_TRACKING_URI", "AWS_ENDPOINT_URL", "AWS_REGION",
                "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
                "AWS_REQUEST_CHECKSUM_CALCULATION", "AWS_RESPONSE_CHECKSUM_VALIDATION",
                "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "AWS_CA_BUNDLE");
        // Nothing bound: only the cluster's S3 checksum setting and CA bundle (on in the production context).
        JsonNode bare = load(HubFixtures.defaults(), Bindings.NONE).path("traits").path("KubeSpawner").path("environment");
        assertThat(names(bare)).containsExactlyInAnyOrder("AWS_REQUEST_CHECKSUM_CALCULATION",
                "AWS_RESPONSE_CHECKSUM_VALIDATION", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "AWS_CA_BUNDLE");
        assertThat(bare.path("AWS_CA_BUNDLE").asText()).isEqualTo("/lakehouse/truststore/ca-bundle.pem");
        assertThat(bare.path("AWS_REQUEST_CHECKSUM_CALCULATION").asText()).isEqualTo("when_required");
    }

    /**
     * The CA bundle on user servers: an init container of the notebook image itself writes the PEM file
     * (its Python's roots + the private CA) into an emptyDir the server reads, from {@code <hub>-ca-certs}.
     */
    @Test
    void userServersTrustTheCaBundleThroughAnInitContainerOfTheirImage() throws Exception {
        JsonNode spawner = load(HubFixtures.defaults(), Bindings.NONE).path("traits").path("KubeSpawner");
        JsonNode init = spawner.path("init_containers");
        assertThat(init).hasSize(1);
        assertThat(init.get(0).path("image").asText()).isEqualTo(spawner.path("image").asText());
        assertThat(init.get(0).path("command").get(0).asText()).isEqualTo("sh");
        assertThat(init.get(0).path("command").get(2).asText()).contains("certifi.where()");
        assertThat(spawner.path("volumes").toString()).contains("\"name\":\"notebooks-ca-certs\"");
        assertThat(spawner.path("volume_mounts").toString())
                .contains("{\"mountPath\":\"/lakehouse/truststore\",\"name\":\"truststore\",\"readOnly\":true}");
    }

    /** User pods get the instance's root object as owner: deleting the instance stops them, volumes stay. */
    @Test
    void userPodsBelongToTheInstance() throws Exception {
        String owners = run(write(HubFixtures.defaults(), Bindings.NONE).toString(), "own-pod");
        assertThat(JSON.readTree(owners).toString()).isEqualTo("[{\"api_version\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"name\":\"notebooks-instance\",\"uid\":\"" + HubFixtures.owner().getUid() + "\"}]");
    }

    /** Who may sign in, per the grants file the hub reads at every sign-in (the hub keeps running). */
    @Test
    void whoMaySignInFollowsTheGrants() throws Exception {
        Path config = write(HubFixtures.defaults(), Bindings.NONE);
        Path grants = dir.resolve("grants.json");
        Files.writeString(grants, "{\"groups\": [\"/data-team\"], \"users\": [\"bob\"]}");
        Path missing = dir.resolve("missing.json");
        record SignIn(Path grants, String user, String groups, boolean admin) {}
        Map<String, SignIn> cases = Map.of(
                "administrator", new SignIn(grants, "alice", "[]", true),
                "granted user", new SignIn(grants, "bob", "[]", false),
                "member of a granted group", new SignIn(grants, "carol", "[\"/data-team\"]", false),
                "group of the same name elsewhere", new SignIn(grants, "dave", "[\"/other/data-team\"]", false),
                "nobody", new SignIn(grants, "eve", "[]", false),
                "administrator without grants file", new SignIn(missing, "alice", "[]", true),
                "granted user without grants file", new SignIn(missing, "bob", "[]", false));
        Map<String, Boolean> allowed = new java.util.TreeMap<>();
        for (var e : cases.entrySet()) {
            SignIn s = e.getValue();
            allowed.put(e.getKey(), Boolean.parseBoolean(run(config.toString(), "check-allowed", s.grants().toString(),
                    s.user(), s.groups(), String.valueOf(s.admin())).trim()));
        }
        assertThat(allowed).isEqualTo(Map.of(
                "administrator", true, "granted user", true, "member of a granted group", true,
                "group of the same name elsewhere", false, "nobody", false,
                "administrator without grants file", true, "granted user without grants file", false));
    }

    private JsonNode load(HubInstance inst, Bindings bindings) throws Exception {
        return JSON.readTree(run(write(inst, bindings).toString()));
    }

    private Path write(HubInstance inst, Bindings bindings) throws IOException {
        Path file = Files.createTempFile(dir, "jupyterhub_config", ".py");
        Files.writeString(file, HubConfig.render(inst, HubFixtures.productionContext(), bindings, HubFixtures.owner()));
        return file;
    }

    private static String run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(System.getProperty("lakehouse.python", "python3"),
                Path.of("src", "test", "python", "load_hub_config.py").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(false);
        pb.environment().put("OIDC_ISSUER", ISSUER);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            Assumptions.abort("no Python on this machine: " + e.getMessage());
            return "";
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("python failed: %s", err).isZero();
        return out;
    }

    private static Set<String> setTraits(JsonNode loaded) {
        Set<String> set = new TreeSet<>();
        loaded.path("traits").fields().forEachRemaining(section ->
                section.getValue().fieldNames().forEachRemaining(t -> set.add(section.getKey() + "." + t)));
        return set;
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    static Set<String> knownTraits() throws IOException {
        return Files.readAllLines(Path.of("src", "test", "resources", "jupyterhub", "hub-traits.txt")).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
