package io.lakehouse.access.it;

import static io.lakehouse.access.it.Api.host;
import static io.lakehouse.access.it.Api.instance;
import static io.lakehouse.common.testing.Callers.as;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.response.Response;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Grants per instance, the deployer's automatic grant, forward-auth and "who has access". */
@QuarkusTest
@WithKubernetesTestServer
@QuarkusTestResource(value = TestStack.class, restrictToAnnotatedClass = true)
class GrantsTest {

    String ns;

    @BeforeEach
    void namespace() {
        ns = Callers.freshNamespace();
    }

    @Test
    void theDeployerIsGrantedAndForwardAuthFollowsTheGrants() {
        String trino = instance(ns, "trino", "sql");
        try (EventWriter writer = new EventWriter(); EventReader reader = new EventReader("lakehouse.access")) {
            Api.requestInstance(writer, ns, "trino", "sql", "dora");
            asAdmin().get(trino + "/grants").then().statusCode(200).body("subjects", contains("user:dora"));
            await().atMost(Api.PROPAGATION).until(() -> grantEvents(reader, ns).size() == 1);
            LakehouseEvent auto = grantEvents(reader, ns).get(0);
            assertThat(auto.type()).isEqualTo(EventType.GRANT_ADDED);
            assertThat(auto.data().get("subject").asText()).isEqualTo("dora");
            assertThat(auto.data().get("kind").asText()).isEqualTo("trino");

            authz("dora", host(ns, "sql")).then().statusCode(200).body("kind", equalTo("trino"))
                    .body("user", equalTo("dora"));
            authz("dora", host(ns, "sql").toUpperCase() + ":443").then().statusCode(200);
            authz("eve", host(ns, "sql")).then().statusCode(403).contentType("application/problem+json");
            authz("gus", host(ns, "sql"), "analysts").then().statusCode(403);
            authz("dora", host(ns, "missing")).then().statusCode(404);
            authz("dora", "").then().statusCode(400);

            // Users are compared by their identity key (lowercased); groups by full path.
            asAdmin().body("{\"subjects\":[\"group:/analysts\",\"user:EVE\",\"user:eve\"]}").post(trino + "/grants")
                    .then().statusCode(200).body("subjects", contains("group:/analysts", "user:dora", "user:eve"));
            authz("gus", host(ns, "sql"), "analysts").then().statusCode(200);
            authz("eve", host(ns, "sql")).then().statusCode(200);
            authz("Eve", host(ns, "sql")).then().statusCode(200).body("user", equalTo("eve"));
            // A group of the same name under another parent is another group.
            authz("hal", host(ns, "sql"), "/other/analysts").then().statusCode(403);
            asAdmin().get(trino + "/access").then().statusCode(200).body("users", contains("dora", "eve"))
                    .body("groups", contains("/analysts"));
            await().atMost(Api.PROPAGATION).until(() -> grantEvents(reader, ns).size() == 3);

            asAdmin().delete(trino + "/grants/user:eve").then().statusCode(204);
            asAdmin().delete(trino + "/grants/user:eve").then().statusCode(404);
            authz("eve", host(ns, "sql")).then().statusCode(403);
            await().atMost(Api.PROPAGATION).until(() -> grantEvents(reader, ns).size() == 4);
            assertThat(grantEvents(reader, ns).get(3).type()).isEqualTo(EventType.GRANT_REMOVED);

            // Deleting the instance removes its grants: the host is unknown again.
            writer.send(Api.instanceEvent(EventType.INSTANCE_DELETED, ns, "trino", "sql", "dora"));
            await().atMost(Api.PROPAGATION).until(() -> authz("dora", host(ns, "sql")).statusCode() == 404);
            asAdmin().get(trino + "/grants").then().statusCode(404);
            await().atMost(Api.PROPAGATION).until(() -> grantEvents(reader, ns).size() == 6);
            assertThat(grantEvents(reader, ns).subList(4, 6)).extracting(LakehouseEvent::type)
                    .containsOnly(EventType.GRANT_REMOVED);
        }
    }

    @Test
    void aRemovedMemberLosesItsGrantsOnTheNamespacesInstances() {
        String trino = instance(ns, "trino", "sql");
        String elsewhere = Callers.freshNamespace();
        try (EventWriter writer = new EventWriter(); EventReader reader = new EventReader("lakehouse.access")) {
            asAdmin().body("{\"role\":\"operator\"}").put(Api.members(ns) + "/user:dora").then().statusCode(200);
            Api.requestInstance(writer, ns, "trino", "sql", "dora");
            Api.requestInstance(writer, elsewhere, "trino", "sql", "dora");
            asAdmin().body("{\"subjects\":[\"user:eve\"]}").post(trino + "/grants").then().statusCode(200);
            authz("dora", host(ns, "sql")).then().statusCode(200);

            // Removed (any case: the identity key is lowercased): the deployer's automatic grant goes too.
            asAdmin().delete(Api.members(ns) + "/user:Dora").then().statusCode(204);
            authz("dora", host(ns, "sql")).then().statusCode(403);
            asAdmin().get(trino + "/grants").then().statusCode(200).body("subjects", contains("user:eve"));
            authz("eve", host(ns, "sql")).then().statusCode(200);
            authz("dora", host(elsewhere, "sql")).then().statusCode(200);
            await().atMost(Api.PROPAGATION).until(() -> grantEvents(reader, ns).stream()
                    .anyMatch(e -> e.type() == EventType.GRANT_REMOVED && "dora".equals(e.data().get("subject").asText())));

            // A group member removed: the group's grants go the same way.
            asAdmin().body("{\"role\":\"viewer\"}").put(Api.members(ns) + "/group:/analysts").then().statusCode(200);
            asAdmin().body("{\"subjects\":[\"group:/analysts\"]}").post(trino + "/grants").then().statusCode(200);
            authz("gus", host(ns, "sql"), "analysts").then().statusCode(200);
            asAdmin().delete(Api.members(ns) + "/group:/analysts").then().statusCode(204);
            authz("gus", host(ns, "sql"), "analysts").then().statusCode(403);
            asAdmin().get(trino + "/grants").then().statusCode(200).body("subjects", contains("user:eve"));
        }
    }

    @Test
    void kindsAndInstancesThatTakeNoGrants() {
        asAdmin().get(instance(ns, "iceberg-catalog", "cat") + "/grants").then().statusCode(422)
                .contentType("application/problem+json").body("errors[0].field", equalTo("kind"));
        asAdmin().body("{\"subjects\":[\"user:a\"]}").post(instance(ns, "spark-connect", "sc") + "/grants").then()
                .statusCode(422);
        asAdmin().get(instance(ns, "teapot", "x") + "/grants").then().statusCode(404);
        asAdmin().get(instance(ns, "mlflow", "missing") + "/grants").then().statusCode(404);
        asAdmin().body("{\"subjects\":[\"user:a\"]}").post(instance(ns, "mlflow", "missing") + "/grants").then()
                .statusCode(404).contentType("application/problem+json");
        asAdmin().get(instance(ns, "nifi", "Not_A_Name") + "/access").then().statusCode(404);
    }

    @Test
    void badGrantListsAreRefusedAndChangeNothing() {
        String mlflow = instance(ns, "mlflow", "ml");
        try (EventWriter writer = new EventWriter(); EventReader reader = new EventReader("lakehouse.access")) {
            Api.requestInstance(writer, ns, "mlflow", "ml", "dora");
            String tooMany = IntStream.range(0, 101).mapToObj(i -> "\"user:u" + i + "\"")
                    .reduce((a, b) -> a + "," + b).orElseThrow();
            asAdmin().body("{\"subjects\":[" + tooMany + "]}").post(mlflow + "/grants").then().statusCode(422)
                    .contentType("application/problem+json").body("errors[0].field", equalTo("subjects"));
            asAdmin().body("{\"subjects\":[\"user:" + "x".repeat(70_000) + "\"]}").post(mlflow + "/grants").then()
                    .statusCode(413);
            asAdmin().body("{\"subjects\":[\"user:ok\",\"robot:x\",\"group:\",\"group:analysts\",\"group:/a//b\"]}")
                    .post(mlflow + "/grants").then().statusCode(422)
                    .body("errors.field", contains("subjects[1]", "subjects[2]", "subjects[3]", "subjects[4]"));
            asAdmin().body("{\"subjects\":[]}").post(mlflow + "/grants").then().statusCode(422);
            asAdmin().body("{\"subjects\":\"user:a\"}").post(mlflow + "/grants").then().statusCode(400);
            asAdmin().delete(mlflow + "/grants/robot:x").then().statusCode(400);

            asAdmin().get(mlflow + "/grants").then().statusCode(200).body("subjects", contains("user:dora"));
            await().atMost(Api.PROPAGATION).until(() -> reader.events(ns + "/mlflow/ml").size() == 1);
            // Nothing more arrives after the auto-grant (a later event would have followed it by now).
            asAdmin().body("{\"subjects\":[\"user:marker\"]}").post(mlflow + "/grants").then().statusCode(200);
            await().atMost(Api.PROPAGATION).until(() -> reader.events(ns + "/mlflow/ml").size() >= 2);
            assertThat(reader.events(ns + "/mlflow/ml")).extracting(e -> e.data().get("subject").asText())
                    .containsExactly("dora", "marker");
        }
    }

    @Test
    void anInstanceWithoutADeployerHasNoGrants() {
        try (EventWriter writer = new EventWriter()) {
            Api.requestInstance(writer, ns, "jupyterhub", "hub", "not a user name");
            asAdmin().get(instance(ns, "jupyterhub", "hub") + "/grants").then().statusCode(200)
                    .body("subjects", empty());
            authz("anyone", host(ns, "hub")).then().statusCode(403);
        }
    }

    /**
     * Forward-auth records the groups of each caller's token and publishes them when they change, once
     * however many requests carry them (access.user-groups-seen, keyed by the user): engines-service
     * makes Trino's group file of them, since Trino reads no groups from tokens.
     */
    @Test
    void forwardAuthPublishesTheGroupsSeenInATokenWhenTheyChange() {
        String user = "ursula-" + ns;
        try (EventWriter writer = new EventWriter(); EventReader reader = new EventReader("lakehouse.access")) {
            Api.requestInstance(writer, ns, "trino", "sql", "dora");
            await().atMost(Api.PROPAGATION).until(() -> authz("dora", host(ns, "sql")).statusCode() == 200);
            for (int i = 0; i < 3; i++) {
                authz(user, host(ns, "sql"), "/team-b", "/team-a").then().statusCode(403);
            }
            await().atMost(Api.PROPAGATION).until(() -> groupsSeen(reader, user).size() == 1);
            authz(user, host(ns, "sql"), "/team-b").then().statusCode(403);
            await().atMost(Api.PROPAGATION).until(() -> groupsSeen(reader, user).size() == 2);
            authz(user, host(ns, "sql"), "/team-b").then().statusCode(403);
            authz(user, host(ns, "sql"), "/team-c", "/team-b").then().statusCode(403);
            await().atMost(Api.PROPAGATION).until(() -> groupsSeen(reader, user).size() >= 3);
            // One event per change, in order, never the repeats.
            assertThat(groupsSeen(reader, user)).containsExactly(List.of("/team-a", "/team-b"), List.of("/team-b"),
                    List.of("/team-b", "/team-c"));
            LakehouseEvent first = reader.events("user:" + user).get(0);
            assertThat(first.data().get("user").asText()).isEqualTo(user);
        }
    }

    private static List<List<String>> groupsSeen(EventReader reader, String user) {
        return reader.events("user:" + user).stream().filter(e -> e.type() == EventType.USER_GROUPS_SEEN)
                .map(e -> {
                    List<String> groups = new java.util.ArrayList<>();
                    e.data().get("groups").forEach(g -> groups.add(g.asText()));
                    return groups;
                }).toList();
    }

    private static Response authz(String user, String host, String... groups) {
        return as(user, groups).queryParam("host", host).get("/api/v1/authz");
    }

    /** The grant events of the test's instance (its OIDC client's events share the subject). */
    private static List<LakehouseEvent> grantEvents(EventReader reader, String ns) {
        return reader.events(ns + "/trino/sql").stream()
                .filter(e -> e.type() == EventType.GRANT_ADDED || e.type() == EventType.GRANT_REMOVED).toList();
    }
}
