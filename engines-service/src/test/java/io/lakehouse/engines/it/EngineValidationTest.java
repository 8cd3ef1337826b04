package io.lakehouse.engines.it;

import static io.lakehouse.common.testing.Callers.as;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.engines.it.Api.instances;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input of every template gets a clear 4xx problem, and changes nothing: no row, no object.
 * Namespace {@code ns} has a Ready catalog {@code cat} on bucket Secret {@code warehouse-bucket};
 * namespace {@code other} has a catalog {@code elsewhere}.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EngineValidationTest {

    private static final String NS = Callers.freshNamespace();
    private static final String OTHER = Callers.freshNamespace();
    private static final String S3 = "\"storage\":{\"bucket\":\"artifacts\",\"endpoint\":\"http://minio:9000\","
            + "\"region\":\"us-east-1\",\"credentialsSecret\":\"warehouse-bucket\"}";

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    @BeforeAll
    void catalogs() {
        Api.bucketSecret(kube, NS, "warehouse-bucket");
        Api.catalogReady(NS, "cat");
        Api.catalogReady(OTHER, "elsewhere");
        await().atMost(Duration.ofSeconds(30)).until(() -> pool.query("SELECT count(*) FROM catalogs WHERE name IN"
                + " ('cat', 'elsewhere')").execute().await().indefinitely().iterator().next().getLong(0) == 2);
    }

    static Stream<Arguments> badRequests() {
        return Stream.of(
                // kind, body, status, field (or null)
                Arguments.of("trino", "{\"name\":\"t1\",\"spec\":{\"catalog\":\"nope\"}}", 422, "spec.catalog"),
                Arguments.of("trino", "{\"name\":\"t1\",\"spec\":{\"catalog\":\"elsewhere\"}}", 422, "spec.catalog"),
                Arguments.of("trino", "{\"name\":\"t1\",\"spec\":{}}", 422, "spec.catalog"),
                Arguments.of("trino", "{\"name\":\"t1\",\"spec\":{\"catalog\":\"cat\",\"coordinatorMemory\":\"2Gi\"}}",
                        422, "spec.coordinatorMemory"),
                Arguments.of("trino", "{\"name\":\"t1\",\"spec\":{\"catalog\":\"cat\",\"workerMemory\":\"3000Mi\"}}",
                        422, "spec.workerMemory"),
                Arguments.of("trino", "{\"name\":\"t1\",\"spec\":{\"catalog\":\"cat\",\"workers\":0}}", 422,
                        "spec.workers"),
                Arguments.of("trino", "{\"name\":\"t1\",\"spec\":{\"catalog\":\"cat\",\"warehouse\":\"SYSTEM\"}}",
                        422, "spec.warehouse"),
                Arguments.of("trino", "{\"name\":\"T_1\",\"spec\":{\"catalog\":\"cat\"}}", 422, "name"),
                Arguments.of("trino", "{\"spec\":{\"catalog\":\"cat\"}}", 422, "name"),
                Arguments.of("trino", "{\"name\":\"t1\",\"spec\":{\"catalog\":\"cat\",\"replicas\":3}}", 400, null),
                Arguments.of("trino", "{\"name\":\"t1\",\"spec\":{\"catalog\":\"cat\",\"workers\":\"many\"}}", 400, null),
                Arguments.of("trino", "{\"name\":\"t1\",\"spec\":[1]}", 400, null),
                Arguments.of("trino", "{\"name\":", 400, null),
                Arguments.of("spark-connect", "{\"name\":\"s1\",\"spec\":{\"catalog\":\"cat\",\"driverMemory\":\"4Gi\","
                        + "\"podMemory\":\"4Gi\"}}", 422, "spec.podMemory"),
                Arguments.of("spark-connect", "{\"name\":\"s1\",\"spec\":{\"catalog\":\"cat\",\"warehouse\":\"system\"}}",
                        422, "spec.warehouse"),
                Arguments.of("spark-connect", "{\"name\":\"s1\",\"spec\":{\"catalog\":\"elsewhere\"}}", 422,
                        "spec.catalog"),
                Arguments.of("mlflow", "{\"name\":\"m1\",\"spec\":{}}", 422, "spec.storage"),
                Arguments.of("mlflow", "{\"name\":\"m1\",\"spec\":{" + S3.replace("warehouse-bucket", "missing")
                        + "}}", 422, "spec.storage.credentialsSecret"),
                Arguments.of("mlflow", "{\"name\":\"m1\",\"spec\":{" + S3 + ",\"artifactsPrefix\":\"../x\"}}", 422,
                        "spec.artifactsPrefix"),
                Arguments.of("nifi", "{\"name\":\"n1\",\"spec\":{\"heap\":\"4Gi\",\"resources\":{\"memory\":\"4Gi\"}}}",
                        422, "spec.resources.memory"),
                Arguments.of("nifi", "{\"name\":\"n1\",\"spec\":{\"volumeSize\":\"lots\"}}", 422, "spec.volumeSize"),
                Arguments.of("nifi", "{\"name\":\"" + "n".repeat(60) + "\",\"spec\":{}}", 422, "name"));
    }

    @ParameterizedTest(name = "{0} {2}: {1}")
    @MethodSource("badRequests")
    void badInputIsRefusedAndChangesNothing(String kind, String body, int status, String field) {
        var response = asAdmin().body(body).post(instances(NS, kind));
        response.then().statusCode(status).contentType("application/problem+json").body("status", equalTo(status));
        if (field != null) {
            response.then().body("errors.field", hasItem(field));
        }
        assertNothingIn(NS);
    }

    @Test
    void anUnknownKindIsNotFound() {
        asAdmin().get(instances(NS, "hive")).then().statusCode(404).contentType("application/problem+json");
        asAdmin().body("{\"name\":\"x\",\"spec\":{}}").post(instances(NS, "iceberg-catalog")).then().statusCode(404);
    }

    @Test
    void callersNeedATokenAndARole() {
        given().get(instances(NS, "trino")).then().statusCode(401);
        given().auth().oauth2("not-a-token").get(instances(NS, "trino")).then().statusCode(401);
        as("mallory").get(instances(NS, "trino")).then().statusCode(403).contentType("application/problem+json");
        as("mallory").body("{\"name\":\"x\",\"spec\":{}}").post(instances(NS, "nifi")).then().statusCode(403);
        assertNothingIn(NS);
    }

    @Test
    void fixedFieldsAndUnknownFieldsCannotBePatched() {
        String ns = Callers.freshNamespace();
        asAdmin().body("{\"name\":\"n2\",\"spec\":{}}").post(instances(ns, "nifi")).then().statusCode(201);
        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"volumeSize\":\"20Gi\"}}")
                .patch(instances(ns, "nifi") + "/n2")
                .then().statusCode(422).body("errors.field", hasItem("spec.volumeSize"));
        // 4Gi of memory leaves no 1Gi of headroom over a 3500Mi heap.
        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"heap\":\"3500Mi\"}}")
                .patch(instances(ns, "nifi") + "/n2")
                .then().statusCode(422).body("errors.field", hasItem("spec.resources.memory"));
        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"color\":\"red\"}}")
                .patch(instances(ns, "nifi") + "/n2").then().statusCode(400);
        asAdmin().get(instances(ns, "nifi") + "/n2").then().statusCode(200).body("generation", equalTo(1))
                .body("spec.heap", equalTo("2Gi"));
        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"heap\":\"3Gi\",\"resources\":"
                        + "{\"memory\":\"5Gi\"}}}").patch(instances(ns, "nifi") + "/n2")
                .then().statusCode(200).body("generation", equalTo(2));
        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"cores\":2}}")
                .patch(instances(ns, "trino") + "/n2").then().statusCode(404);
    }

    private void assertNothingIn(String ns) {
        long rows = pool.preparedQuery("SELECT count(*) FROM instances WHERE namespace = $1").execute(Tuple.of(ns))
                .await().indefinitely().iterator().next().getLong(0);
        assertThat(rows).isZero();
        assertThat(kube.configMaps().inNamespace(ns).list().getItems()).isEmpty();
        assertThat(kube.apps().deployments().inNamespace(ns).list().getItems()).isEmpty();
    }
}
