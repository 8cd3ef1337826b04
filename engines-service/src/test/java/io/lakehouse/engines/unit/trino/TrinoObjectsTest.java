package io.lakehouse.engines.unit.trino;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.lakehouse.common.instances.GeneratedSecret;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.common.testing.GoldenYaml;
import io.lakehouse.engines.kinds.trino.TrinoKind;
import io.lakehouse.engines.kinds.trino.TrinoSpec;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.unit.EngineFixtures;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every object of fixed Trino instances against {@code golden/trino/<case>.yaml}; regenerate after an
 * intended change with {@code -Dgolden.update=true} and review the diff.
 */
class TrinoObjectsTest {

    private static final TrinoKind KIND = new TrinoKind();

    static Instance defaults() {
        TrinoSpec spec = KIND.withDefaults(new TrinoSpec("lakehouse-cat", null, null, null, null, null, null),
                Optional.of(EngineFixtures.catalog()));
        return EngineFixtures.instance("trino", "sql", spec);
    }

    static Instance large() {
        TrinoSpec spec = KIND.withDefaults(new TrinoSpec("lakehouse-cat", "sales_dw", null, 5, "8Gi", "16Gi", "4"),
                Optional.of(EngineFixtures.catalog()));
        return EngineFixtures.instance("trino", "analytics", spec);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("defaults", defaults(), EngineFixtures.context()),
                Arguments.of("production", large(), EngineFixtures.productionContext()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theGeneratedObjectsAreTheGoldenOnes(String name, Instance inst, EngineContext ctx) {
        List<HasMetadata> objects = KIND.objects(inst, ctx, EngineFixtures.owner());
        GoldenYaml.assertGolden("trino/" + name, "Golden objects of the trino fixture \"" + name
                + "\" (TrinoObjectsTest).", GoldenYaml.trees(objects));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void noSecretValueIsWrittenOutsideSecrets(String name, Instance inst, EngineContext ctx) {
        for (HasMetadata o : KIND.objects(inst, ctx, EngineFixtures.owner())) {
            String yaml = GoldenYaml.yaml(GoldenYaml.tree(o));
            assertThat(yaml).as(o.getKind()).doesNotContain("clientSecret:", "AKIA", "oidc-client-secret");
            assertThat(o).isNotInstanceOf(Secret.class);
        }
        ConfigMap catalog = (ConfigMap) KIND.objects(inst, ctx, EngineFixtures.owner()).get(2);
        assertThat(catalog.getData().values().iterator().next())
                .contains("iceberg.rest-catalog.oauth2.credential=${ENV:CATALOG_CREDENTIAL}",
                        "s3.aws-access-key=${ENV:AWS_ACCESS_KEY_ID}",
                        "iceberg.rest-catalog.vended-credentials-enabled=false");
    }

    /** The seed's {@code SELECT * FROM lakehouse.sales.orders} works whatever the warehouse. */
    @Test
    void theCatalogIsNamedLakehouseWhateverTheWarehouse() {
        ConfigMap catalog = (ConfigMap) KIND.objects(large(), EngineFixtures.productionContext(), EngineFixtures.owner())
                .get(2);
        assertThat(catalog.getData()).containsOnlyKeys("lakehouse.properties");
        assertThat(catalog.getData().get("lakehouse.properties")).contains("iceberg.rest-catalog.warehouse=sales_dw");
    }

    @Test
    void queryMemoryPlusHeadroomStaysWithinTheFixedHeap() {
        ConfigMap coordinator = (ConfigMap) KIND.objects(defaults(), EngineFixtures.context(), EngineFixtures.owner())
                .get(0);
        String config = coordinator.getData().get("config.properties");
        String jvm = coordinator.getData().get("jvm.config");
        int perNode = megabytes(config, "query.max-memory-per-node=");
        int headroom = megabytes(config, "memory.heap-headroom-per-node=");
        assertThat(jvm).contains("-Xmx1400M");
        assertThat(perNode + headroom).isLessThanOrEqualTo(1400);
        assertThat(config).contains("internal-communication.shared-secret=${ENV:").doesNotContain("query.max-memory=");
        // G1 sizes its regions for this heap: 32M regions are meant for heaps of tens of GB.
        assertThat(jvm).contains("-XX:+UseG1GC").doesNotContain("G1HeapRegionSize");
    }

    /** Scaling the workers changes their replicas only: the coordinator's pod template stays the same. */
    @Test
    void changingTheWorkerCountRestartsNeitherTheCoordinatorNorTheWorkers() {
        TrinoSpec two = (TrinoSpec) defaults().spec();
        Instance five = EngineFixtures.instance("trino", "sql", new TrinoSpec(two.catalog(), two.warehouse(),
                two.storage(), 5, two.coordinatorMemory(), two.workerMemory(), two.cpu()));
        List<Deployment> before = deployments(defaults());
        List<Deployment> after = deployments(five);
        assertThat(after.get(0).getSpec().getTemplate()).isEqualTo(before.get(0).getSpec().getTemplate());
        assertThat(after.get(1).getSpec().getTemplate()).isEqualTo(before.get(1).getSpec().getTemplate());
        assertThat(after.get(1).getSpec().getReplicas()).isEqualTo(5);
    }

    /**
     * Ready (and started) by the image's health-check, which waits until Trino no longer starts; alive by
     * /v1/info; one coordinator at a time (Recreate).
     */
    @Test
    void readinessIsTheImagesHealthCheckAndTheCoordinatorIsRecreated() {
        List<Deployment> deployments = deployments(defaults());
        for (Deployment d : deployments) {
            var trino = d.getSpec().getTemplate().getSpec().getContainers().get(0);
            assertThat(trino.getReadinessProbe().getExec().getCommand()).containsExactly("/usr/lib/trino/bin/health-check");
            assertThat(trino.getStartupProbe().getExec().getCommand()).containsExactly("/usr/lib/trino/bin/health-check");
            assertThat(trino.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/v1/info");
        }
        assertThat(deployments.get(0).getSpec().getStrategy().getType()).isEqualTo("Recreate");
    }

    @Test
    void oauth2SessionsAreRefreshed() {
        ConfigMap coordinator = (ConfigMap) KIND.objects(defaults(), EngineFixtures.context(), EngineFixtures.owner())
                .get(0);
        assertThat(coordinator.getData().get("config.properties"))
                .contains("http-server.authentication.oauth2.refresh-tokens=true");
    }

    /** The coordinator first, then the workers. */
    private static List<Deployment> deployments(Instance inst) {
        List<Deployment> deployments = KIND.objects(inst, EngineFixtures.context(), EngineFixtures.owner()).stream()
                .filter(Deployment.class::isInstance).map(Deployment.class::cast).toList();
        assertThat(deployments).hasSize(2);
        assertThat(deployments.get(0).getMetadata().getName()).isEqualTo(inst.name());
        return deployments;
    }

    @Test
    void generatedSecretsHoldASharedSecretAndAKeystoreForTheCoordinator() throws Exception {
        List<GeneratedSecret> generated = KIND.generatedSecrets(defaults(), EngineFixtures.context(),
                EngineFixtures.owner());
        assertThat(generated).extracting(GeneratedSecret::name).containsExactly("sql-internal", "sql-tls");
        Secret internal = generated.get(0).build().get();
        assertThat(decode(internal, "shared-secret")).hasSizeGreaterThan(60);
        assertThat(decode(generated.get(0).build().get(), "shared-secret")).isNotEqualTo(decode(internal, "shared-secret"));
        Secret tls = generated.get(1).build().get();
        assertThat(tls.getData()).containsKeys("ca.crt", "keystore.p12", "truststore.p12", "password");
        KeyStore keystore = KeyStore.getInstance("PKCS12");
        keystore.load(new ByteArrayInputStream(Base64.getDecoder().decode(tls.getData().get("keystore.p12"))),
                decode(tls, "password").toCharArray());
        assertThat(keystore.isKeyEntry("server")).isTrue();
        assertThat(List.of(internal, tls)).as("Trino's alone: out of the other services' caches")
                .allSatisfy(s -> assertThat(s.getMetadata().getLabels()).containsEntry(Labels.PRIVATE, "true"));
    }

    private static int megabytes(String config, String key) {
        String line = config.lines().filter(l -> l.startsWith(key)).findFirst().orElseThrow();
        return Integer.parseInt(line.substring(key.length()).replace("MB", ""));
    }

    private static String decode(Secret secret, String key) {
        return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
    }
}
