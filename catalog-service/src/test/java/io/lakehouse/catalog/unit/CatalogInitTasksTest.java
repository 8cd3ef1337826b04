package io.lakehouse.catalog.unit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.catalog.domain.CatalogSpec;
import io.lakehouse.catalog.reconcile.CatalogSecrets;
import io.lakehouse.catalog.reconcile.CatalogTasks;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.storage.StorageSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The two task Jobs: user values reach them only as env entries or JSON files, never as code. */
class CatalogInitTasksTest {

    /** Values no fixed script could contain by accident. */
    private static final Instance DISTINCTIVE = Fixtures.named("zebracat", "ns-quokka", new CatalogSpec(
            new StorageSpec("bucket-wombat", "https://s3.platypus.example:9443", "region-axolotl", true,
                    "secret-narwhal", null, null),
            "catalog_okapi", "REALM_PANGOLIN", null, null).withDefaults());
    private static final List<String> USER_VALUES = List.of("zebracat", "ns-quokka", "bucket-wombat",
            "platypus", "region-axolotl", "secret-narwhal", "catalog_okapi", "REALM_PANGOLIN");

    private static String script(Instance inst) {
        return config(inst).getData().get("create-catalog.sh");
    }

    private static ConfigMap config(Instance inst) {
        return CatalogTasks.catalogInitConfig(inst, Fixtures.context(), Fixtures.owner());
    }

    private static Container catalogInitContainer(Instance inst) {
        Job job = CatalogTasks.catalogInit(inst, Fixtures.context(), Fixtures.owner());
        return job.getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static Container realmInitContainer(Instance inst) {
        Job job = CatalogTasks.realmInit(inst, Fixtures.context(), Fixtures.owner(), Fixtures.DATABASE_UID);
        return job.getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static Map<String, EnvVar> env(Container c) {
        return c.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
    }

    private static Set<String> matches(Pattern pattern, String text) {
        Set<String> found = new LinkedHashSet<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    @Test
    void theScriptIsTheFixedResourceWhateverTheInstance() throws IOException {
        try (InputStream in = CatalogTasks.class.getResourceAsStream("/tasks/create-catalog.sh")) {
            String resource = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(script(DISTINCTIVE)).isEqualTo(resource);
            assertThat(script(Fixtures.withCredentialsSecret())).isEqualTo(resource);
        }
    }

    @Test
    void theScriptContainsNoUserProvidedValue() {
        String script = script(DISTINCTIVE);
        for (String value : USER_VALUES) {
            assertThat(script).as("script").doesNotContain(value);
        }
    }

    @Test
    void theUserProvidedValuesOfTheConfigMapAreOnlyInTheJsonFiles() {
        Map<String, String> data = config(DISTINCTIVE).getData();
        assertThat(data).containsOnlyKeys("create-catalog.sh", "catalog.json", "grant.json");
        assertThat(data.get("catalog.json")).contains("bucket-wombat", "catalog_okapi", "region-axolotl");
        assertThat(data.get("grant.json")).doesNotContain(USER_VALUES.toArray(String[]::new));
    }

    @Test
    void everyVariableTheScriptReadsIsAnEnvEntryOfTheJob() {
        Set<String> read = matches(Pattern.compile("\\$\\{?([A-Z][A-Z0-9_]*)"), script(DISTINCTIVE));
        assertThat(read).containsExactlyInAnyOrder(
                "POLARIS_URL", "POLARIS_REALM", "POLARIS_CLIENT_ID", "POLARIS_CLIENT_SECRET", "POLARIS_CATALOG");
        assertThat(env(catalogInitContainer(DISTINCTIVE)).keySet()).containsAll(read);
    }

    @Test
    void theJobPassesTheUserValuesAsEnvValues() {
        Map<String, EnvVar> env = env(catalogInitContainer(DISTINCTIVE));
        assertThat(env.get("POLARIS_URL").getValue()).isEqualTo("http://zebracat.ns-quokka.svc:8181");
        assertThat(env.get("POLARIS_REALM").getValue()).isEqualTo("REALM_PANGOLIN");
        assertThat(env.get("POLARIS_CATALOG").getValue()).isEqualTo("catalog_okapi");
    }

    @Test
    void theJobTakesTheRootCredentialsFromTheirSecret() {
        Map<String, EnvVar> env = env(catalogInitContainer(DISTINCTIVE));
        assertThat(env.get("POLARIS_CLIENT_ID").getValue()).isNull();
        assertThat(env.get("POLARIS_CLIENT_ID").getValueFrom().getSecretKeyRef().getName())
                .isEqualTo(CatalogNames.rootPrincipalSecret("zebracat"));
        assertThat(env.get("POLARIS_CLIENT_ID").getValueFrom().getSecretKeyRef().getKey())
                .isEqualTo(CatalogSecrets.CLIENT_ID);
        assertThat(env.get("POLARIS_CLIENT_SECRET").getValueFrom().getSecretKeyRef().getKey())
                .isEqualTo(CatalogSecrets.CLIENT_SECRET);
    }

    @Test
    void theJobRunsTheMountedScriptWithoutInlineShellCode() {
        Container c = catalogInitContainer(DISTINCTIVE);
        assertThat(c.getCommand()).containsExactly("/bin/sh", "/task/create-catalog.sh");
        assertThat(c.getArgs()).isNullOrEmpty();
        assertThat(c.getVolumeMounts()).singleElement().satisfies(m -> {
            assertThat(m.getMountPath()).isEqualTo("/task");
            assertThat(m.getReadOnly()).isTrue();
        });
        Job job = CatalogTasks.catalogInit(DISTINCTIVE, Fixtures.context(), Fixtures.owner());
        assertThat(job.getSpec().getTemplate().getSpec().getVolumes()).singleElement()
                .satisfies(v -> assertThat(v.getConfigMap().getName()).isEqualTo(CatalogNames.catalogInit("zebracat")));
    }

    @Test
    void theFilesTheScriptSendsAreInTheConfigMap() {
        Set<String> files = matches(Pattern.compile("/task/([a-z.-]+)"), script(DISTINCTIVE));
        assertThat(files).isNotEmpty();
        assertThat(config(DISTINCTIVE).getData().keySet()).containsAll(files);
    }

    @Test
    void theScriptCallsTheManagementApiWithTheRealmHeader() {
        String script = script(DISTINCTIVE);
        assertThat(script)
                .contains("$POLARIS_URL/api/catalog/v1/oauth/tokens")
                .contains("grant_type=client_credentials")
                .contains("scope=PRINCIPAL_ROLE:ALL")
                .contains("$POLARIS_URL/api/management/v1")
                .contains("POST /catalogs /task/catalog.json")
                .contains("/catalogs/$POLARIS_CATALOG/catalog-roles/catalog_admin/grants")
                .contains("Polaris-Realm: $POLARIS_REALM");
    }

    @Test
    void realmInitRunsTheAdminToolBootstrapOnACredentialsFileWithoutSecretsOnAnyCommandLine() {
        Job job = CatalogTasks.realmInit(DISTINCTIVE, Fixtures.context(), Fixtures.owner(), Fixtures.DATABASE_UID);
        Container c = realmInitContainer(DISTINCTIVE);
        assertThat(c.getCommand()).as("the image's entrypoint runs the admin tool").isNullOrEmpty();
        assertThat(c.getArgs()).containsExactly("bootstrap", "--credentials-file=/credentials/bootstrap.yaml");
        assertThat(env(c)).doesNotContainKeys("POLARIS_CLIENT_ID", "POLARIS_CLIENT_SECRET");
        Container writer = job.getSpec().getTemplate().getSpec().getInitContainers().get(0);
        for (Container any : List.of(c, writer)) {
            String line = String.join(" ", any.getCommand() == null ? List.of() : any.getCommand())
                    + String.join(" ", any.getArgs() == null ? List.of() : any.getArgs());
            assertThat(line).as(any.getName()).doesNotContain("$(");
        }
        assertThat(env(writer).get("POLARIS_CLIENT_SECRET").getValueFrom().getSecretKeyRef().getName())
                .isEqualTo(CatalogNames.rootPrincipalSecret("zebracat"));
        assertThat(job.getSpec().getTemplate().getSpec().getVolumes()).singleElement().satisfies(v -> {
            assertThat(v.getEmptyDir().getMedium()).isEqualTo("Memory");
        });
    }

    /** The writer's command, run by bash here: the file the admin tool reads holds the realm's credentials. */
    @Test
    void theCredentialsFileIsTheAdminToolsYamlFormat() throws Exception {
        Job job = CatalogTasks.realmInit(DISTINCTIVE, Fixtures.context(), Fixtures.owner(), Fixtures.DATABASE_UID);
        Container writer = job.getSpec().getTemplate().getSpec().getInitContainers().get(0);
        Path dir = Files.createTempDirectory("realm-init");
        Path file = dir.resolve("bootstrap.yaml");
        List<String> command = writer.getCommand().stream()
                .map(a -> a.replace("/credentials/bootstrap.yaml", file.toString())).toList();
        ProcessBuilder run = new ProcessBuilder(command).redirectErrorStream(true);
        run.environment().put("POLARIS_REALM", env(writer).get("POLARIS_REALM").getValue());
        run.environment().put("POLARIS_CLIENT_ID", "0a1b2c3d4e5f6071");
        run.environment().put("POLARIS_CLIENT_SECRET", "s3cr-et_Value-0123456789abcdefABCDEF");
        Process p = run.start();
        assertThat(p.waitFor()).as(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();

        JsonNode credentials = new YAMLMapper().readTree(file.toFile());
        assertThat(credentials.toString()).isEqualTo("{\"REALM_PANGOLIN\":{\"client-id\":\"0a1b2c3d4e5f6071\","
                + "\"client-secret\":\"s3cr-et_Value-0123456789abcdefABCDEF\"}}");
    }

    /**
     * The script, run by sh with a stand-in curl that records its command lines and standard input: the
     * client secret and the access token only travel on standard input.
     */
    @Test
    void theScriptNeverPutsTheSecretOrTheTokenOnACommandLine() throws Exception {
        Path dir = Files.createTempDirectory("catalog-init");
        Path script = dir.resolve("create-catalog.sh");
        Files.writeString(script, script(DISTINCTIVE));
        Path bin = Files.createDirectory(dir.resolve("bin"));
        Path curl = bin.resolve("curl");
        Files.writeString(curl, """
                #!/bin/sh
                echo "ARGS $*" >> "$LOG"
                echo "STDIN $(cat)" >> "$LOG"
                case "$*" in
                  *oauth/tokens*) printf '{"access_token": "tok-0123456789", "token_type": "bearer"}' ;;
                  *) printf '201' ;;
                esac
                """);
        curl.toFile().setExecutable(true);
        Path log = dir.resolve("log");
        ProcessBuilder run = new ProcessBuilder("sh", script.toString()).redirectErrorStream(true);
        run.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        run.environment().put("LOG", log.toString());
        run.environment().put("POLARIS_URL", "http://zebracat:8181");
        run.environment().put("POLARIS_REALM", "REALM_PANGOLIN");
        run.environment().put("POLARIS_CATALOG", "catalog_okapi");
        run.environment().put("POLARIS_CLIENT_ID", "client-0a1b");
        run.environment().put("POLARIS_CLIENT_SECRET", "very-secret-value");
        Process p = run.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();

        List<String> lines = Files.readAllLines(log);
        List<String> args = lines.stream().filter(l -> l.startsWith("ARGS ")).toList();
        assertThat(args).hasSize(3).allSatisfy(a -> assertThat(a).doesNotContain("very-secret-value", "tok-0123456789"));
        assertThat(args.get(0)).contains("client_secret@-", "client_id=client-0a1b");
        assertThat(lines).contains("STDIN very-secret-value", "STDIN Authorization: Bearer tok-0123456789");
        assertThat(out).contains("catalog catalog_okapi created");
    }

    @Test
    void realmInitUsesTheServersDatabase() {
        Map<String, EnvVar> env = env(realmInitContainer(DISTINCTIVE));
        assertThat(env.get("POLARIS_PERSISTENCE_TYPE").getValue()).isEqualTo("relational-jdbc");
        for (String name : List.of("QUARKUS_DATASOURCE_JDBC_URL", "QUARKUS_DATASOURCE_USERNAME",
                "QUARKUS_DATASOURCE_PASSWORD")) {
            assertThat(env.get(name).getValueFrom().getSecretKeyRef().getName())
                    .as(name).isEqualTo(CatalogNames.databaseAppSecret("zebracat"));
        }
    }

    @Test
    void bothTasksNeverRestartInPlaceAndEndWithinADeadline() {
        for (Job job : List.of(CatalogTasks.realmInit(DISTINCTIVE, Fixtures.context(), Fixtures.owner(), Fixtures.DATABASE_UID),
                CatalogTasks.catalogInit(DISTINCTIVE, Fixtures.context(), Fixtures.owner()))) {
            assertThat(job.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("Never");
            assertThat(job.getSpec().getActiveDeadlineSeconds()).isPositive();
            assertThat(job.getSpec().getBackoffLimit()).isPositive();
        }
    }
}
