package io.lakehouse.access.it;

import static io.lakehouse.access.it.Api.members;
import static io.lakehouse.common.testing.Callers.as;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Memberships: stored, published on lakehouse.access, and honoured by the service's own authorizer. */
@QuarkusTest
@WithKubernetesTestServer
@QuarkusTestResource(value = TestStack.class, restrictToAnnotatedClass = true)
class MembersTest {

    String ns;

    @BeforeEach
    void namespace() {
        ns = Callers.freshNamespace();
    }

    @Test
    void aMemberSetIsPublishedAndHonouredWithinASecond() {
        Api.awaitConsumersCaughtUp();
        try (EventReader reader = new EventReader("lakehouse.access")) {
            asAdmin().body("{\"role\":\"operator\"}").put(members(ns) + "/user:olga").then().statusCode(200)
                    .body("subject", equalTo("user:olga")).body("role", equalTo("operator"));
            List<Duration> propagation = new ArrayList<>(List.of(untilAnswered(ns, "olga", 200)));
            // Within a second: the median of several changes (one poll of a Kafka consumer on a busy
            // 2-core machine can take longer), and none may take seconds.
            for (int i = 0; i < 4; i++) {
                String other = Callers.freshNamespace();
                asAdmin().body("{\"role\":\"viewer\"}").put(members(other) + "/user:olga").then().statusCode(200);
                propagation.add(untilAnswered(other, "olga", 200));
            }
            propagation.sort(null);
            assertThat(propagation.get(propagation.size() / 2)).as("median of %s", propagation)
                    .isLessThan(Duration.ofSeconds(1));

            await().atMost(Api.PROPAGATION).until(() -> reader.events(ns).size() == 1);
            LakehouseEvent event = reader.events(ns).get(0);
            assertThat(event.type()).isEqualTo(EventType.MEMBER_SET);
            assertThat(event.subject()).isEqualTo(ns);
            assertThat(event.source()).isEqualTo("/lakehouse/access-service");
            assertThat(event.data().get("namespace").asText()).isEqualTo(ns);
            assertThat(event.data().get("subjectType").asText()).isEqualTo("user");
            assertThat(event.data().get("subject").asText()).isEqualTo("olga");
            assertThat(event.data().get("role").asText()).isEqualTo("operator");

            as("olga").get(members(ns) + "/user:olga").then().statusCode(200).body("role", equalTo("operator"));
            asAdmin().get(members(ns)).then().statusCode(200).body("", hasSize(1));

            // The same role again changes nothing and publishes nothing.
            asAdmin().body("{\"role\":\"operator\"}").put(members(ns) + "/user:olga").then().statusCode(200);
            asAdmin().body("{\"role\":\"viewer\"}").put(members(ns) + "/group:/analysts").then().statusCode(200);
            await().atMost(Api.PROPAGATION).until(() -> reader.events(ns).size() == 2);
            assertThat(reader.events(ns).get(1).data().get("subjectType").asText()).isEqualTo("group");
            assertThat(reader.events(ns).get(1).data().get("subject").asText()).isEqualTo("/analysts");
            asAdmin().get(members(ns) + "/group:/analysts").then().statusCode(200).body("subject", equalTo("group:/analysts"));

            asAdmin().delete(members(ns) + "/user:olga").then().statusCode(204);
            await().atMost(Api.PROPAGATION).until(() -> reader.events(ns).size() == 3);
            LakehouseEvent removed = reader.events(ns).get(2);
            assertThat(removed.type()).isEqualTo(EventType.MEMBER_REMOVED);
            assertThat(removed.data().get("subject").asText()).isEqualTo("olga");
            assertThat(untilAnswered(ns, "olga", 403)).isLessThan(Duration.ofSeconds(5));
            asAdmin().get(members(ns) + "/user:olga").then().statusCode(404).contentType("application/problem+json");
            asAdmin().delete(members(ns) + "/user:olga").then().statusCode(404);

            // A group's role reaches its members.
            await().atMost(Api.PROPAGATION).until(() -> as("gina", "analysts").get(members(ns)).statusCode() == 200);
        }
    }

    @Test
    void onlyTokensForThePlatformsApisAreAccepted() {
        // Same issuer, same key, a platform admin's groups: meant for another client, so 401.
        String elsewhere = Callers.tokenFor("ns1.sql.trino", "root-admin", Callers.ADMIN_GROUP);
        given().auth().oauth2(elsewhere).get(members(ns)).then().statusCode(401);
        given().auth().oauth2(elsewhere).queryParam("host", "x").get("/api/v1/authz").then().statusCode(401);
        asAdmin().get(members(ns)).then().statusCode(200);
        // Users are their lowercased username, on input and in the caller's token alike.
        asAdmin().body("{\"role\":\"viewer\"}").put(members(ns) + "/user:Vera").then().statusCode(200)
                .body("subject", equalTo("user:vera"));
        await().atMost(Api.PROPAGATION).until(() -> as("VERA").get(members(ns)).statusCode() == 200);
        asAdmin().get(members(ns) + "/user:VERA").then().statusCode(200).body("role", equalTo("viewer"));
        // platform-admins is a top-level group: a group of that name elsewhere is nobody's admin.
        as("mallory", "/other/platform-admins").get(members(ns)).then().statusCode(403);
    }

    @Test
    void badInputIsAProblemAndChangesNothing() {
        try (EventReader reader = new EventReader("lakehouse.access")) {
            asAdmin().body("{\"role\":\"owner\"}").put(members(ns) + "/user:olga").then().statusCode(422)
                    .contentType("application/problem+json").body("errors[0].field", equalTo("role"));
            asAdmin().body("{}").put(members(ns) + "/user:olga").then().statusCode(422);
            asAdmin().body("{\"role\":\"viewer\",\"extra\":1}").put(members(ns) + "/user:olga").then().statusCode(400);
            asAdmin().body("not json").put(members(ns) + "/user:olga").then().statusCode(400);
            for (String subject : List.of("olga", "robot:olga", "user:", "user:a b", "user:" + "x".repeat(129),
                    "group:comma,name", "group:analysts", "group:/", "group:/a//b")) {
                asAdmin().body("{\"role\":\"viewer\"}").put(members(ns) + "/" + subject).then().statusCode(400)
                        .contentType("application/problem+json");
            }
            asAdmin().body("{\"role\":\"viewer\"}").put("/api/v1/namespaces/Bad_NS/members/user:olga").then()
                    .statusCode(400);
            asAdmin().body("{\"role\":\"viewer\"}").put(members(ns) + "/user:" + "x".repeat(128)).then().statusCode(200);

            asAdmin().get(members(ns)).then().statusCode(200).body("", hasSize(1));
            await().atMost(Api.PROPAGATION).until(() -> reader.events(ns).size() == 1);
            assertThat(reader.events(ns)).extracting(e -> e.data().get("subject").asText())
                    .containsExactly("x".repeat(128));
        }
    }

    /** How long until the user's call is answered with the status (at most 5 s, else the test fails). */
    private static Duration untilAnswered(String namespace, String user, int status) {
        long start = System.nanoTime();
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> as(user).get(members(namespace)).statusCode() == status);
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
