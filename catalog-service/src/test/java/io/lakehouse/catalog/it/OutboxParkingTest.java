package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.outbox.Outbox;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Outbox rows Kafka can never take (an unknown type, a record over the broker's size) are parked
 * with their reason, readiness says so while staying UP, and the events after them are published.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class OutboxParkingTest {

    private static final Duration PROPAGATION = Duration.ofSeconds(15);
    private static final String INSERT = "INSERT INTO outbox (event_id, topic, subject, type, source, event_time, data)"
            + " VALUES ($1, 'lakehouse.access', $2, $3, '/lakehouse/test', now(), $4::jsonb)";

    @Inject
    Pool pool;

    @TestHTTPResource(value = "/health/ready", management = true) // under the management root /q
    URL readiness;

    @Test
    void badRowsAreParkedWithTheirReasonAndTheEventsAfterThemFlow() {
        String ns = Callers.freshNamespace();
        long parkedBefore = outboxCheck().getLong("data.parked");
        UUID unknown = UUID.randomUUID();
        UUID oversized = UUID.randomUUID();
        LakehouseEvent after = Api.memberSet(ns, "user", "after", "viewer");
        try (EventReader reader = new EventReader("lakehouse.access")) {
            pool.withTransaction(tx -> tx.preparedQuery(INSERT)
                    .execute(Tuple.of(unknown, ns, "lakehouse.access.from-the-future.v9",
                            "{\"namespace\":\"" + ns + "\"}"))
                    .chain(() -> tx.preparedQuery(INSERT).execute(Tuple.of(oversized, ns,
                            "lakehouse.access.member-set.v1", "{\"namespace\":\"" + ns + "\",\"pad\":\""
                                    + "x".repeat(2 * 1024 * 1024) + "\"}")))
                    .chain(() -> Outbox.append(tx, after))).await().atMost(PROPAGATION);

            await().atMost(PROPAGATION).until(() -> reader.events(ns).stream().anyMatch(e -> e.id().equals(after.id())));
            assertThat(reader.events(ns)).extracting(LakehouseEvent::id).containsExactly(after.id());
            await().atMost(PROPAGATION).until(() -> as("after").get(catalogs(ns)).statusCode() == 200);
        }

        List<String> reasons = new ArrayList<>();
        for (Row row : pool.preparedQuery("SELECT event_id, parked_reason FROM outbox WHERE event_id = ANY($1)"
                + " AND parked_at IS NOT NULL AND published_at IS NULL ORDER BY seq")
                .execute(Tuple.of(new UUID[] {unknown, oversized})).await().atMost(PROPAGATION)) {
            reasons.add(row.getUUID(0) + " " + row.getString(1));
        }
        assertThat(reasons).hasSize(2);
        assertThat(reasons.get(0)).startsWith(unknown + " not a valid event: ").contains("from-the-future");
        assertThat(reasons.get(1)).startsWith(oversized + " refused by Kafka: ");

        await().atMost(PROPAGATION).until(() -> outboxCheck().getLong("data.parked") == parkedBefore + 2);
        JsonPath check = outboxCheck();
        assertThat(check.getString("status")).isEqualTo("UP");
        assertThat(check.getString("data.state")).isEqualTo("degraded");
        assertThat(check.getString("data.lastError")).startsWith((parkedBefore + 2) + " outbox row(s) parked");
    }

    private JsonPath outboxCheck() {
        JsonPath ready = given().get(readiness).then().statusCode(200).extract().jsonPath();
        return new JsonPath(ready.prettify()).setRootPath("checks.find { it.name == 'outbox' }");
    }
}
