package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.as;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Tokens, roles from lakehouse.access events, and exactly-once application of those events. */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class CatalogSecurityTest {

    @TestHTTPResource(value = "/health/live", management = true) // under the management root /q
    URL live;

    private static final Duration PROPAGATION = Duration.ofSeconds(10);

    @Inject
    KubernetesClient kube;

    String ns;

    @BeforeEach
    void namespace() {
        ClusterSimulation.of(kube);
        ns = Callers.freshNamespace();
    }

    @Test
    void withoutAValidTokenEveryApiCallIs401() {
        given().get(catalogs(ns)).then().statusCode(401);
        given().get("/api/v1/templates").then().statusCode(401);
        given().auth().oauth2("not-a-jwt").get(catalogs(ns)).then().statusCode(401);
        given().auth().oauth2(TestStack.TOKENS.expired(TestStack.ISSUER, "alice", List.of(Callers.ADMIN_GROUP)))
                .get(catalogs(ns)).then().statusCode(401);
        given().auth().oauth2(TestStack.TOKENS.signedWithOtherKey(TestStack.ISSUER, "alice",
                List.of(Callers.ADMIN_GROUP), Duration.ofMinutes(5))).get(catalogs(ns)).then().statusCode(401);
        given().auth().oauth2(TestStack.TOKENS.sign("https://evil.example/issuer", "alice",
                List.of(Callers.ADMIN_GROUP), Duration.ofMinutes(5))).get(catalogs(ns)).then().statusCode(401);
        given().auth().oauth2(unsigned("alice")).get(catalogs(ns)).then().statusCode(401);
        // Health is open, on the management interface only: the API port (what an Ingress exposes) has none.
        given().get(live).then().statusCode(200);
        given().get("/q/health/live").then().statusCode(404);
    }

    @Test
    void aCallerWithoutARoleIsRefusedWithoutLearningWhatExists() {
        asAdmin().body(Api.catalogRequest("cat", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        as("mallory").get(catalogs(ns) + "/cat").then().statusCode(403).contentType("application/problem+json");
        as("mallory").get(catalogs(ns) + "/missing").then().statusCode(403);
        as("mallory").get(catalogs(ns)).then().statusCode(403);
        as("mallory").get("/api/v1/namespaces/" + ns + "/buckets").then().statusCode(403);
        as("mallory").get("/api/v1/templates").then().statusCode(200).body("[0].kind", equalTo("iceberg-catalog"))
                .body("[0].category", equalTo("Governance"));
    }

    @Test
    void rolesGrantedAndRemovedThroughAccessEventsAreHonoured() {
        asAdmin().body(Api.catalogRequest("cat", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        try (EventWriter writer = new EventWriter()) {
            writer.send(Api.memberSet(ns, "user", "vera", "viewer"));
            writer.send(Api.memberSet(ns, "group", "/data-team", "operator"));
            await().atMost(PROPAGATION).until(() -> as("vera").get(catalogs(ns) + "/cat").statusCode() == 200);
            as("vera").body(Api.catalogRequest("other", "k").toString()).post(catalogs(ns)).then().statusCode(403);
            as("vera").delete(catalogs(ns) + "/cat").then().statusCode(403);
            as("vera").contentType("application/merge-patch+json").body("{}").patch(catalogs(ns) + "/cat")
                    .then().statusCode(403);

            await().atMost(PROPAGATION).until(() -> as("olga", "data-team").get(catalogs(ns)).statusCode() == 200);
            as("olga", "data-team").body(Api.catalogRequest("other", "k").toString()).post(catalogs(ns))
                    .then().statusCode(201).body("createdBy", equalTo("olga"));

            writer.send(Api.memberRemoved(ns, "user", "vera"));
            await().atMost(PROPAGATION).until(() -> as("vera").get(catalogs(ns) + "/cat").statusCode() == 403);
            as("vera").get("/api/v1/namespaces/" + Callers.freshNamespace() + "/instances/iceberg-catalog")
                    .then().statusCode(403);
        }
    }

    @Test
    void aDuplicateAccessEventIsAppliedOnce() {
        try (EventWriter writer = new EventWriter()) {
            LakehouseEvent admin = Api.memberSet(ns, "user", "dave", "admin");
            writer.send(admin);
            await().atMost(PROPAGATION).until(() -> as("dave").get(catalogs(ns)).statusCode() == 200);
            writer.send(Api.memberSet(ns, "user", "dave", "viewer"));
            await().atMost(PROPAGATION).until(() -> as("dave").body(Api.catalogRequest("c1", "k").toString())
                    .post(catalogs(ns)).statusCode() == 403);
            // Redelivered (same event id): were it applied again, dave would be admin once more.
            writer.send(admin);
            LakehouseEvent marker = Api.memberSet(ns, "user", "marker", "viewer");
            writer.send(marker);
            await().atMost(PROPAGATION).until(() -> as("marker").get(catalogs(ns)).statusCode() == 200);
            as("dave").body(Api.catalogRequest("c2", "k").toString()).post(catalogs(ns)).then().statusCode(403);
        }
    }

    @Test
    void aMalformedAccessEventGoesToTheDeadLetterTopicAndTheStreamKeepsFlowing() {
        try (EventWriter writer = new EventWriter(); EventReader dlq = new EventReader("lakehouse.access.dlq")) {
            RecordHeaders headers = new RecordHeaders();
            headers.add("ce_type", "lakehouse.access.member-set.v1".getBytes());
            headers.add("ce_specversion", "1.0".getBytes());
            writer.send("lakehouse.access", ns, headers, "{\"namespace\":".getBytes());
            writer.send(Api.memberSet(ns, "user", "after", "viewer"));
            await().atMost(PROPAGATION).until(() -> as("after").get(catalogs(ns)).statusCode() == 200);
            await().atMost(PROPAGATION).until(() -> !dlq.records(ns).isEmpty());
        }
    }

    private static String unsigned(String user) {
        String header = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}".getBytes());
        String payload = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("{\"iss\":\"" + TestStack.ISSUER + "\",\"preferred_username\":\"" + user
                        + "\",\"groups\":[\"platform-admins\"],\"exp\":4102444800}").getBytes());
        return header + "." + payload + ".";
    }
}
