package io.lakehouse.access.it;

import static io.lakehouse.access.it.Api.members;
import static io.lakehouse.common.testing.Callers.as;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Mutating calls become audit.recorded events (common's filter) and land in the audit log with the lifecycle events. */
@QuarkusTest
@WithKubernetesTestServer
@QuarkusTestResource(value = TestStack.class, restrictToAnnotatedClass = true)
class AuditTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SPARKJOBS = "/lakehouse/sparkjobs-service";

    /**
     * A mutating call whose token is refused (meant for another client, or forged) answers 401 and changes
     * nothing. Its authentication failed, so no identity was ever set: the audit filter, on the IO thread,
     * used to read the injected SecurityIdentity there, which threw BlockingOperationNotAllowedException
     * and turned the 401 into a 500 (fixed in cbca57f: it reads the deferred identity). Still audited, with
     * its outcome and no caller.
     */
    @Test
    void aMutatingCallWithARefusedTokenIs401AndAudited() {
        String ns = Callers.freshNamespace();
        String target = members(ns) + "/user:vera";
        String otherClients = Callers.tokenFor("trino-client", "root-admin", Callers.ADMIN_GROUP);
        String forged = Callers.token("root-admin", Callers.ADMIN_GROUP) + "x";
        try (EventReader reader = new EventReader("lakehouse.audit")) {
            for (String token : List.of(otherClients, forged)) {
                given().auth().oauth2(token).contentType(ContentType.JSON).body("{\"role\":\"admin\"}").put(target)
                        .then().statusCode(401).body("code", equalTo("unauthorized"));
            }
            // outside a resolved call there is no namespace parameter: the record's subject is "platform"
            Supplier<List<LakehouseEvent>> refused = () -> reader.events("platform").stream()
                    .filter(e -> e.data().path("target").asText().equals(target)).toList();
            await().atMost(Api.PROPAGATION).until(() -> refused.get().size() == 2);
            assertThat(refused.get()).extracting(e -> e.data().get("outcome").asInt()).containsExactly(401, 401);
            assertThat(refused.get()).allSatisfy(e -> assertThat(e.data().path("who").isNull()).isTrue());
        }
        asAdmin().get(target).then().statusCode(404);
    }

    @Test
    void aMutatingCallIsRecordedAndListedWithPaging() {
        String ns = Callers.freshNamespace();
        try (EventReader reader = new EventReader("lakehouse.audit")) {
            asAdmin().header("X-Request-Id", "req-42").body("{\"role\":\"viewer\"}").put(members(ns) + "/user:vera")
                    .then().statusCode(200).header("X-Request-Id", "req-42");
            asAdmin().body("{\"role\":\"owner\"}").put(members(ns) + "/user:vera").then().statusCode(422)
                    .header("X-Request-Id", notNullValue());
            // The token says "Mallory": the audit log's "who" is the identity key, lowercased.
            as("Mallory").delete(members(ns) + "/user:vera").then().statusCode(403);
            asAdmin().get(members(ns)).then().statusCode(200).header("X-Request-Id", (String) null);

            await().atMost(Api.PROPAGATION).until(() -> reader.events(ns).size() == 3);
            LakehouseEvent first = reader.events(ns).get(0);
            assertThat(first.type()).isEqualTo(EventType.AUDIT_RECORDED);
            assertThat(first.data().get("who").asText()).isEqualTo("root-admin");
            assertThat(first.data().get("what").asText())
                    .isEqualTo("PUT /api/v1/namespaces/{namespace}/members/{subject}");
            assertThat(first.data().get("namespace").asText()).isEqualTo(ns);
            assertThat(first.data().get("target").asText()).isEqualTo(members(ns) + "/user:vera");
            assertThat(first.data().get("outcome").asInt()).isEqualTo(200);
            assertThat(first.data().get("requestId").asText()).isEqualTo("req-42");
            assertThat(reader.events(ns)).extracting(e -> e.data().get("outcome").asInt())
                    .containsExactly(200, 422, 403);
            assertThat(reader.events(ns).get(2).data().get("who").asText()).isEqualTo("mallory");
        }

        // The log holds the three calls and the member-set event, oldest first, a page at a time.
        await().atMost(Api.PROPAGATION).until(() -> asAdmin().queryParam("namespace", ns).get("/api/v1/audit")
                .jsonPath().getList("items").size() == 4);
        JsonPath page1 = asAdmin().queryParam("namespace", ns).queryParam("limit", 3).get("/api/v1/audit").then()
                .statusCode(200).body("items", hasSize(3)).extract().jsonPath();
        JsonPath page2 = asAdmin().queryParam("namespace", ns).queryParam("limit", 3)
                .queryParam("continue", page1.getString("continue")).get("/api/v1/audit").then().statusCode(200)
                .body("items", hasSize(1)).body("continue", equalTo(null)).extract().jsonPath();
        List<String> types = new java.util.ArrayList<>(page1.getList("items.type"));
        types.addAll(page2.getList("items.type"));
        assertThat(types).containsExactlyInAnyOrder("audit.recorded", "audit.recorded", "audit.recorded",
                "access.member-set");

        asAdmin().queryParam("namespace", ns).queryParam("subject", "MALLORY").get("/api/v1/audit").then()
                .statusCode(200).body("items", hasSize(1)).body("items[0].outcome", equalTo(403))
                .body("items[0].action", equalTo("DELETE /api/v1/namespaces/{namespace}/members/{subject}"));
        asAdmin().queryParam("namespace", ns).queryParam("since", "2999-01-01T00:00:00Z").get("/api/v1/audit")
                .then().statusCode(200).body("items", hasSize(0));
        asAdmin().queryParam("since", "yesterday").get("/api/v1/audit").then().statusCode(422);
        asAdmin().queryParam("limit", 0).get("/api/v1/audit").then().statusCode(422);
        asAdmin().queryParam("continue", "!!").get("/api/v1/audit").then().statusCode(400);
    }

    /**
     * The lifecycle events of every kind reach the log through the service's instances consumer (no group of the
     * log's own reads that topic), with the grant its projection adds, each event once however often delivered.
     */
    @Test
    void instanceEventsOfEveryKindAreLoggedOnceEach() {
        String ns = Callers.freshNamespace();
        LakehouseEvent catalogRequested = Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "iceberg-catalog",
                "cat", "dora");
        try (EventWriter writer = new EventWriter()) {
            writer.send(catalogRequested);
            writer.send(Api.instanceEvent(EventType.INSTANCE_READY, ns, "iceberg-catalog", "cat", "dora"));
            writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "trino", "sql", "dora"));
            writer.send(catalogRequested);
            // same subject, same partition: logged after the redelivery was handled
            writer.send(Api.instanceEvent(EventType.INSTANCE_DELETED, ns, "iceberg-catalog", "cat", "dora"));
        }
        Supplier<List<String>> logged = () -> asAdmin().queryParam("namespace", ns).get("/api/v1/audit").then()
                .statusCode(200).extract().jsonPath().getList("items.type");
        await().atMost(Api.PROPAGATION).until(() -> logged.get().contains("instance.deleted")
                && logged.get().contains("access.grant-added"));
        assertThat(logged.get()).containsExactlyInAnyOrder("instance.requested", "instance.ready",
                "instance.deleted", "instance.requested", "access.grant-added");
        asAdmin().queryParam("namespace", ns).queryParam("subject", "dora").get("/api/v1/audit").then()
                .statusCode(200).body("items.target", hasItem(ns + "/iceberg-catalog/cat"))
                .body("items.target", hasItem(ns + "/trino/sql"));
    }

    /**
     * Jobs' and schedules' lifecycle events ({@code lakehouse.sparkjobs}, which only the audit log reads here) are
     * logged once each, by the job's launcher, a state change with the state it reached; a job run by hand (no
     * launcher) by the service that saw it.
     */
    @Test
    void sparkJobAndScheduleEventsAreLoggedOnceEach() {
        String ns = Callers.freshNamespace();
        LakehouseEvent submitted = jobEvent(EventType.SPARKJOB_SUBMITTED, ns, "etl-1", "SUBMITTED", "dora");
        try (EventWriter writer = new EventWriter()) {
            writer.send(scheduleEvent(EventType.SPARKSCHEDULE_CREATED, ns, "nightly", "dora"));
            writer.send(submitted);
            writer.send(jobEvent(EventType.SPARKJOB_STATE_CHANGED, ns, "etl-1", "RUNNING", "dora"));
            writer.send(submitted);
            writer.send(jobEvent(EventType.SPARKJOB_STATE_CHANGED, ns, "etl-1", "FAILED", "dora"));
            writer.send(jobEvent(EventType.SPARKJOB_SUBMITTED, ns, "by-hand", "SUBMITTED", null));
            writer.send(jobEvent(EventType.SPARKJOB_DELETED, ns, "etl-1", "FAILED", "dora"));
        }
        Supplier<JsonPath> log = () -> asAdmin().queryParam("namespace", ns).get("/api/v1/audit").then()
                .statusCode(200).extract().jsonPath();
        await().atMost(Api.PROPAGATION).until(() -> log.get().getList("items.type").contains("sparkjob.deleted")
                && log.get().getList("items.target").contains(ns + "/sparkjob/by-hand"));
        JsonPath items = log.get();
        assertThat(items.getList("items.action", String.class)).containsExactlyInAnyOrder("sparkschedule.created",
                "sparkjob.submitted", "sparkjob.state-changed to RUNNING", "sparkjob.state-changed to FAILED",
                "sparkjob.submitted", "sparkjob.deleted");
        assertThat(items.getList("items.target", String.class)).contains(ns + "/sparkschedule/nightly",
                ns + "/sparkjob/etl-1");
        asAdmin().queryParam("namespace", ns).queryParam("subject", "dora").get("/api/v1/audit").then()
                .statusCode(200).body("items", hasSize(5));
        assertThat(items.getString("items.find { it.target == '" + ns + "/sparkjob/by-hand' }.actor"))
                .isEqualTo(SPARKJOBS);
    }

    private static LakehouseEvent jobEvent(EventType type, String ns, String name, String state, String launcher) {
        ObjectNode data = JSON.createObjectNode().put("namespace", ns).put("name", name).put("state", state)
                .put("sourceType", "script").put("createdBy", launcher).put("handMade", launcher == null);
        return LakehouseEvent.of(SPARKJOBS, type, ns + "/sparkjob/" + name, data);
    }

    private static LakehouseEvent scheduleEvent(EventType type, String ns, String name, String creator) {
        ObjectNode data = JSON.createObjectNode().put("namespace", ns).put("name", name).put("cron", "0 2 * * *")
                .put("createdBy", creator);
        return LakehouseEvent.of(SPARKJOBS, type, ns + "/sparkschedule/" + name, data);
    }
}
