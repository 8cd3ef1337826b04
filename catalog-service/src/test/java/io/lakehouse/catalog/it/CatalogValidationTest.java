package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every bad input of the template: a clear 4xx problem, nothing stored, nothing created. */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class CatalogValidationTest {

    @Inject
    KubernetesClient kube;

    String ns;

    @BeforeEach
    void namespace() {
        ClusterSimulation.of(kube);
        ns = Callers.freshNamespace();
    }

    static Stream<Arguments> invalidRequests() {
        return Stream.of(
                bad("name", b -> b.put("name", "Bad_Name")),
                bad("name", b -> b.put("name", "a".repeat(49))),
                bad("name", b -> b.remove("name")),
                bad("spec.storage", b -> ((ObjectNode) b.get("spec")).remove("storage")),
                bad("spec.storage.bucket", b -> storage(b).put("bucket", "UPPER")),
                bad("spec.storage.bucket", b -> storage(b).put("bucket", "192.168.1.1")),
                bad("spec.storage.endpoint", b -> storage(b).put("endpoint", "ftp://minio")),
                bad("spec.storage.endpoint", b -> storage(b).put("endpoint", "http://user:pw@minio:9000")),
                bad("spec.storage.region", b -> storage(b).put("region", "US East")),
                bad("spec.storage", b -> storage(b).put("credentialsSecret", "demo-warehouse")),
                bad("spec.storage", b -> storage(b).remove(java.util.List.of("accessKeyId", "secretAccessKey"))),
                bad("spec.storage.secretAccessKey", b -> storage(b).put("secretAccessKey", "has space")),
                bad("spec.catalogName", b -> spec(b).put("catalogName", "system")),
                bad("spec.catalogName", b -> spec(b).put("catalogName", "1abc")),
                bad("spec.realm", b -> spec(b).put("realm", "a,b")),
                bad("spec.resources.memory", b -> spec(b).putObject("resources").put("memory", "256Mi")),
                bad("spec.resources.memory", b -> spec(b).putObject("resources").put("memory", "lots")),
                bad("spec.resources.cpu", b -> spec(b).putObject("resources").put("cpu", "10m")),
                bad("spec.resources.cpu", b -> spec(b).putObject("resources").put("cpu", "-1")),
                bad("spec.database.storageSize", b -> spec(b).putObject("database").put("storageSize", "100Mi")));
    }

    @ParameterizedTest
    @MethodSource("invalidRequests")
    void anInvalidFieldIs422AndNothingIsStoredOrCreated(String field, Consumer<ObjectNode> breakIt) {
        ObjectNode body = Api.catalogRequest("cat", "k");
        breakIt.accept(body);
        asAdmin().body(body.toString()).post(catalogs(ns))
                .then().statusCode(422).contentType("application/problem+json")
                .body("status", equalTo(422))
                .body("errors.field", hasItem(field));
        assertNothingStoredOrCreated();
    }

    @Test
    void aReferenceToAMissingSecretIs422() {
        ObjectNode body = Api.catalogRequest("cat", "k");
        storage(body).remove(java.util.List.of("accessKeyId", "secretAccessKey"));
        storage(body).put("credentialsSecret", "nope");
        asAdmin().body(body.toString()).post(catalogs(ns))
                .then().statusCode(422).body("errors.field", hasItem("spec.storage.credentialsSecret"));
        assertNothingStoredOrCreated();
    }

    @Test
    void aNamespaceBucketSecretCanBeReferencedAndIsListed() {
        kube.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("team-bucket")
                        .addToLabels("lakehouse.io/bucket", "true")
                        .addToAnnotations("lakehouse.io/bucket-name", "warehouse")
                        .addToAnnotations("lakehouse.io/endpoint", "http://minio:9000")
                        .addToAnnotations("lakehouse.io/region", "eu-west-1").endMetadata()
                        .addToData("AWS_ACCESS_KEY_ID", "QUtJQQ==").addToData("AWS_SECRET_ACCESS_KEY", "c2VjcmV0")
                        .build())
                .create();
        asAdmin().get("/api/v1/namespaces/" + ns + "/buckets").then().statusCode(200)
                .body("[0].bucket", equalTo("warehouse")).body("[0].region", equalTo("eu-west-1"))
                .body("[0].credentialsSecret", equalTo("team-bucket"))
                .body("[0].pathStyleAccess", equalTo(true));
        ObjectNode body = Api.catalogRequest("cat", "k");
        storage(body).remove(java.util.List.of("accessKeyId", "secretAccessKey"));
        storage(body).put("credentialsSecret", "team-bucket");
        asAdmin().body(body.toString()).post(catalogs(ns)).then().statusCode(201)
                .body("spec.storage.credentialsSecret", equalTo("team-bucket"));
    }

    @Test
    void aNamespaceBucketPickedByNameFillsTheRestAndExplicitFieldsWin() {
        kube.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("team-bucket")
                        .addToLabels("lakehouse.io/bucket", "true")
                        .addToAnnotations("lakehouse.io/bucket-name", "warehouse")
                        .addToAnnotations("lakehouse.io/endpoint", "http://minio:9000")
                        .addToAnnotations("lakehouse.io/region", "eu-west-1")
                        .addToAnnotations("lakehouse.io/path-style", "false").endMetadata()
                        .addToData("AWS_ACCESS_KEY_ID", "QUtJQQ==").addToData("AWS_SECRET_ACCESS_KEY", "c2VjcmV0")
                        .build())
                .create();

        asAdmin().body("{\"name\":\"cat\",\"spec\":{\"storage\":{\"bucket\":\"team-bucket\"}}}").post(catalogs(ns))
                .then().statusCode(201)
                .body("spec.storage.bucket", equalTo("warehouse"))
                .body("spec.storage.endpoint", equalTo("http://minio:9000"))
                .body("spec.storage.region", equalTo("eu-west-1"))
                .body("spec.storage.pathStyleAccess", equalTo(false))
                .body("spec.storage.credentialsSecret", equalTo("team-bucket"));
        asAdmin().get(catalogs(ns) + "/cat").then().statusCode(200)
                .body("spec.storage.endpoint", equalTo("http://minio:9000"));
        // The generated server takes the bucket's keys by reference and its region.
        await().atMost(java.time.Duration.ofSeconds(30)).until(() -> kube.apps().deployments().inNamespace(ns)
                .withName("cat").get() != null);
        var env = kube.apps().deployments().inNamespace(ns).withName("cat").get().getSpec().getTemplate().getSpec()
                .getContainers().get(0).getEnv();
        assertThat(env).filteredOn(e -> e.getName().equals("AWS_SECRET_ACCESS_KEY")).singleElement()
                .satisfies(e -> assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo("team-bucket"));
        assertThat(env).filteredOn(e -> e.getName().equals("AWS_REGION")).singleElement()
                .satisfies(e -> assertThat(e.getValue()).isEqualTo("eu-west-1"));

        // Fields given with the pick win over the bucket's.
        asAdmin().body("{\"name\":\"cat2\",\"spec\":{\"storage\":{\"bucket\":\"team-bucket\","
                        + "\"region\":\"us-east-2\",\"pathStyleAccess\":true}}}").post(catalogs(ns))
                .then().statusCode(201)
                .body("spec.storage.region", equalTo("us-east-2"))
                .body("spec.storage.pathStyleAccess", equalTo(true))
                .body("spec.storage.endpoint", equalTo("http://minio:9000"));
    }

    @Test
    void anUnknownNamespaceBucketIs422NamingItAndNothingIsCreated() {
        asAdmin().body("{\"name\":\"cat\",\"spec\":{\"storage\":{\"bucket\":\"no-such-bucket\"}}}")
                .post(catalogs(ns)).then().statusCode(422).contentType("application/problem+json")
                .body("errors.field", hasItem("spec.storage.bucket"))
                .body("errors.message", hasItem(org.hamcrest.Matchers.containsString("no-such-bucket")));
        // A Secret that is not a bucket is not picked either.
        kube.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("plain").endMetadata()
                .addToData("AWS_ACCESS_KEY_ID", "QUtJQQ==").addToData("AWS_SECRET_ACCESS_KEY", "c2VjcmV0").build())
                .create();
        asAdmin().body("{\"name\":\"cat\",\"spec\":{\"storage\":{\"bucket\":\"plain\"}}}")
                .post(catalogs(ns)).then().statusCode(422).body("errors.field", hasItem("spec.storage.bucket"));
        assertNothingStoredOrCreated();
    }

    @Test
    void malformedJsonAndUnknownFieldsAre400() {
        asAdmin().body("{not json").post(catalogs(ns)).then().statusCode(400)
                .contentType("application/problem+json");
        ObjectNode body = Api.catalogRequest("cat", "k");
        spec(body).put("replicas", 3);
        asAdmin().body(body.toString()).post(catalogs(ns)).then().statusCode(400)
                .body("detail", org.hamcrest.Matchers.containsString("replicas"));
        asAdmin().body("{\"name\": 42, \"spec\": []}").post(catalogs(ns)).then().statusCode(400);
        assertNothingStoredOrCreated();
    }

    @Test
    void anOversizedBodyIsRefused() {
        ObjectNode body = Api.catalogRequest("cat", "k");
        spec(body).put("catalogName", "x".repeat(100_000));
        asAdmin().body(body.toString()).post(catalogs(ns)).then().statusCode(413);
        assertNothingStoredOrCreated();
    }

    @Test
    void fixedFieldsCannotBePatchedAndBadCapacityIsRefused() {
        asAdmin().body(Api.catalogRequest("cat", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        String one = catalogs(ns) + "/cat";
        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"catalogName\":\"other\"}}")
                .patch(one).then().statusCode(422).body("errors.field", hasItem("spec.catalogName"));
        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"realm\":\"OTHER\"}}")
                .patch(one).then().statusCode(422).body("errors.field", hasItem("spec.realm"));
        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"storage\":{\"bucket\":\"b2\"}}}")
                .patch(one).then().statusCode(422).body("errors.field", hasItem("spec.storage"));
        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"resources\":{\"memory\":\"1Mi\"}}}")
                .patch(one).then().statusCode(422).body("errors.field", hasItem("spec.resources.memory"));
        asAdmin().contentType("application/merge-patch+json")
                .body("{\"spec\":{\"database\":{\"storageSize\":\"1Gi\"}}}").patch(one).then().statusCode(200);
        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"catalogName\":\"lakehouse\"}}")
                .patch(one).then().statusCode(200).body("generation", equalTo(1));
        asAdmin().get(one).then().statusCode(200).body("generation", equalTo(1))
                .body("spec.catalogName", equalTo("lakehouse"));
        asAdmin().get(catalogs(ns) + "/missing").then().statusCode(404).contentType("application/problem+json");
        asAdmin().get(catalogs(ns) + "/Not_A_Name").then().statusCode(404);
        asAdmin().get("/api/v1/namespaces/Bad_NS/instances/iceberg-catalog").then().statusCode(400);
        asAdmin().get(catalogs(ns) + "?limit=0").then().statusCode(422);
        asAdmin().get(catalogs(ns) + "?continue=***").then().statusCode(400);
    }

    private void assertNothingStoredOrCreated() {
        asAdmin().get(catalogs(ns)).then().statusCode(200).body("items.size()", equalTo(0));
        assertThat(kube.configMaps().inNamespace(ns).list().getItems()).isEmpty();
        assertThat(kube.apps().deployments().inNamespace(ns).list().getItems()).isEmpty();
        assertThat(kube.secrets().inNamespace(ns).withLabel("app.kubernetes.io/managed-by").list().getItems())
                .isEmpty();
    }

    private static Arguments bad(String field, Consumer<ObjectNode> change) {
        return Arguments.of(field, change);
    }

    private static ObjectNode spec(ObjectNode body) {
        return (ObjectNode) body.get("spec");
    }

    private static ObjectNode storage(ObjectNode body) {
        return (ObjectNode) body.get("spec").get("storage");
    }
}
