package io.lakehouse.engines.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.engines.it.Api.instances;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Spark Connect, MLflow and NiFi from request to Ready and back to nothing, against the mock API. */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class EngineKindsLifecycleTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);
    private static final String CANARY = "canary-S3cr3t-" + "9b1e77d4";

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    @BeforeEach
    void simulate() {
        ClusterSimulation.of(kube);
    }

    @Test
    void aSparkConnectServerWithATokenRunsOnTheCatalogAndPublishesItsJobProfile() {
        String ns = Callers.freshNamespace();
        catalogWithBucket(ns, "cat");
        try (EventReader events = new EventReader("lakehouse.instances")) {
            asAdmin().body("{\"name\":\"spark\",\"spec\":{\"catalog\":\"cat\",\"requireToken\":true}}")
                    .post(instances(ns, "spark-connect"))
                    .then().statusCode(201)
                    .body("spec.podMemory", equalTo("3Gi"))
                    .body("status.endpoints.internal", equalTo("sc://spark." + ns + ".svc:15443/;use_ssl=true"));
            // No OIDC client for Spark Connect: it starts at once.
            await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns, "spark-connect", "spark")));
            Secret token = kube.secrets().inNamespace(ns).withName("spark-platform").get();
            assertThat(token.getData()).containsKey("token");
            assertThat(kube.services().inNamespace(ns).withName("spark").get().getSpec().getPorts())
                    .extracting(p -> p.getPort()).containsExactly(15443);
            await().atMost(CONVERGE).until(() -> events.events(ns + "/spark-connect/spark").stream()
                    .anyMatch(e -> e.type() == EventType.INSTANCE_READY));
            LakehouseEvent ready = events.events(ns + "/spark-connect/spark").stream()
                    .filter(e -> e.type() == EventType.INSTANCE_READY).findFirst().orElseThrow();
            assertThat(ready.data().path("spec").path("profile").path("image").asText()).isNotBlank();
            assertThat(ready.data().toString()).doesNotContain(decode(token, "token"));

            asAdmin().delete(instances(ns, "spark-connect") + "/spark").then().statusCode(202);
            await().atMost(CONVERGE).until(() -> asAdmin().get(instances(ns, "spark-connect") + "/spark")
                    .statusCode() == 404);
            assertThat(kube.secrets().inNamespace(ns).withName("spark-platform").get()).isNull();
            assertThat(kube.apps().deployments().inNamespace(ns).list().getItems()).isEmpty();
        }
    }

    @Test
    void anMlflowServerWithTypedKeysKeepsThemInItsSecretAndLeavesNothingBehind() {
        String ns = Callers.freshNamespace();
        Response created = asAdmin().body("""
                {"name":"tracking","spec":{"storage":{"bucket":"artifacts","endpoint":"http://minio.storage.svc:9000",
                 "region":"us-east-1","accessKeyId":"AKIA-TEST","secretAccessKey":"%s"}}}""".formatted(CANARY))
                .post(instances(ns, "mlflow"));
        created.then().statusCode(201)
                .body("spec.storage.credentialsSecret", equalTo("tracking-s3"))
                .body("spec.artifactsPrefix", equalTo("mlflow"))
                .body("status.endpoints.internal", equalTo("http://tracking." + ns + ".svc:5000"));
        assertThat(created.asString()).doesNotContain(CANARY);
        // The gateway signs users in for MLflow: its pods read no OIDC client and do not wait for one.
        await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns, "mlflow", "tracking")));
        assertThat(asAdmin().get(instances(ns, "mlflow") + "/tracking").jsonPath()
                .getList("status.conditions.type", String.class))
                .containsExactly("DatabaseReady", "ServerReady", "Ready");
        assertThat(decode(kube.secrets().inNamespace(ns).withName("tracking-s3").get(), "AWS_SECRET_ACCESS_KEY"))
                .isEqualTo(CANARY);
        String rows = pool.preparedQuery("SELECT spec::text || coalesce(sealed_credentials::text, '') FROM instances"
                + " WHERE namespace = $1").execute(Tuple.of(ns)).await().indefinitely().iterator().next().getString(0);
        assertThat(rows).doesNotContain(CANARY);
        assertThat(kube.network().v1().ingresses().inNamespace(ns).withName("tracking").get().getMetadata()
                .getAnnotations()).containsKey("nginx.ingress.kubernetes.io/auth-url");

        // CloudNativePG writes <name>-db-app; the service removes it with the instance.
        kube.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("tracking-db-app")
                .withNamespace(ns).endMetadata().withData(Map.of("uri", "eA==")).build()).createOr(o -> o.update());
        asAdmin().delete(instances(ns, "mlflow") + "/tracking").then().statusCode(202);
        await().atMost(CONVERGE).until(() -> asAdmin().get(instances(ns, "mlflow") + "/tracking").statusCode() == 404);
        assertThat(kube.secrets().inNamespace(ns).withName("tracking-db-app").get()).isNull();
        assertThat(kube.secrets().inNamespace(ns).withName("tracking-s3").get()).isNull();
    }

    @Test
    void aNifiNodeSaysItIsStartingThenGoesAwayWithItsVolume() {
        String ns = Callers.freshNamespace();
        asAdmin().body("{\"name\":\"flows\",\"spec\":{\"heap\":\"2Gi\",\"resources\":{\"memory\":\"3Gi\"}}}")
                .post(instances(ns, "nifi"))
                .then().statusCode(201)
                .body("spec.volumeSize", equalTo("10Gi"))
                .body("status.endpoints.public", equalTo("https://flows-" + ns + ".lakehouse.localtest.me/nifi/"));
        Api.oidcClientReady(kube, ns, "nifi", "flows");
        await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns, "nifi", "flows")));
        Secret tls = kube.secrets().inNamespace(ns).withName("flows-tls").get();
        assertThat(tls.getData()).containsKeys("ca.crt", "keystore.p12", "truststore.p12");
        assertThat(kube.apps().statefulSets().inNamespace(ns).withName("flows").get().getSpec()
                .getTemplate().getSpec().getContainers().get(0).getEnv())
                .anySatisfy(e -> assertThat(e.getName()).isEqualTo("INITIAL_ADMIN_IDENTITY"));

        // The StatefulSet controller would have made the claim; the service removes it on delete.
        kube.persistentVolumeClaims().inNamespace(ns).resource(new PersistentVolumeClaimBuilder().withNewMetadata()
                .withName("data-flows-0").withNamespace(ns).endMetadata().withNewSpec().withAccessModes("ReadWriteOnce")
                .withNewResources().withRequests(Map.of("storage", new Quantity("10Gi")))
                .endResources().endSpec().build()).create();
        asAdmin().delete(instances(ns, "nifi") + "/flows").then().statusCode(202);
        await().atMost(CONVERGE).until(() -> asAdmin().get(instances(ns, "nifi") + "/flows").statusCode() == 404);
        assertThat(kube.persistentVolumeClaims().inNamespace(ns).withName("data-flows-0").get()).isNull();
        assertThat(kube.apps().statefulSets().inNamespace(ns).list().getItems()).isEmpty();
        assertThat(kube.secrets().inNamespace(ns).withName("flows-tls").get()).isNull();
    }

    @Test
    void namesAreSharedByTheFourKinds() {
        String ns = Callers.freshNamespace();
        asAdmin().body("{\"name\":\"shared\",\"spec\":{}}").post(instances(ns, "nifi")).then().statusCode(201);
        asAdmin().body("{\"name\":\"shared\",\"spec\":{\"storage\":{\"bucket\":\"bkt\",\"endpoint\":\"http://s3:9000\","
                        + "\"region\":\"us-east-1\",\"accessKeyId\":\"a\",\"secretAccessKey\":\"b\"}}}")
                .post(instances(ns, "mlflow"))
                .then().statusCode(409).contentType("application/problem+json");
        asAdmin().get(instances(ns, "mlflow")).then().statusCode(200).body("items.size()", equalTo(0));
        asAdmin().get(instances(ns, "mlflow") + "/shared").then().statusCode(404);
    }

    private void catalogWithBucket(String ns, String name) {
        Api.bucketSecret(kube, ns, "warehouse-bucket");
        Api.catalogReady(ns, name);
        await().atMost(CONVERGE).until(() -> pool.preparedQuery("SELECT 1 FROM catalogs WHERE namespace = $1"
                + " AND name = $2").execute(Tuple.of(ns, name)).await().indefinitely().size() == 1);
    }

    private static String phase(String ns, String kind, String name) {
        return asAdmin().get(instances(ns, kind) + "/" + name).jsonPath().getString("status.phase");
    }

    private static String reason(String ns, String kind, String name, String type) {
        return asAdmin().get(instances(ns, kind) + "/" + name).jsonPath()
                .getString("status.conditions.find { it.type == '" + type + "' }.reason");
    }

    private static String decode(Secret secret, String key) {
        return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
    }
}
