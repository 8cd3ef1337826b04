package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A consumer whose handler fails (here the roles projection of lakehouse.access): retried in place
 * while the failure lasts, dead-lettered with its reason once it never succeeds, and in both cases
 * the partition keeps flowing and the service stays in service.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class ConsumerFailuresTest {

    private static final Duration PROPAGATION = Duration.ofSeconds(10);
    /** Eight tries with the default backoff (0.2 s doubling up to 5 s) take about 16 s. */
    private static final Duration ALL_ATTEMPTS = Duration.ofSeconds(40);

    @Inject
    Pool pool;

    @TestHTTPResource(value = "/health/ready", management = true) // under the management root /q
    URL ready;

    @TestHTTPResource(value = "/health/live", management = true) // under the management root /q
    URL live;

    String ns;

    @BeforeEach
    void namespace() {
        ns = Callers.freshNamespace();
    }

    @Test
    void aHandlerFailingForAWhileIsRetriedInPlaceThenApplied() {
        LakehouseEvent vera = Api.memberSet(ns, "user", "vera", "viewer");
        try (EventWriter writer = new EventWriter(); EventReader dlq = new EventReader("lakehouse.access.dlq")) {
            // The projection's table is unreachable for a while, as during a database restart.
            sql("ALTER TABLE member_roles RENAME TO member_roles_away");
            try {
                writer.send(vera);
                await().atMost(PROPAGATION).until(() -> TestLogs.text().lines()
                        .anyMatch(l -> l.contains("event " + vera.id() + " ") && l.contains("attempt 2 of 8")));
            } finally {
                sql("ALTER TABLE member_roles_away RENAME TO member_roles");
            }
            await().atMost(ALL_ATTEMPTS).until(() -> as("vera").get(catalogs(ns)).statusCode() == 200);
            writer.send(Api.memberSet(ns, "user", "after", "viewer"));
            await().atMost(PROPAGATION).until(() -> as("after").get(catalogs(ns)).statusCode() == 200);
            assertThat(dlq.records(ns)).isEmpty();
            given().get(ready).then().statusCode(200);
        }
    }

    @Test
    void anEventItsHandlerCanNeverApplyIsDeadLetteredWithTheReasonAndTheNextOneFlows() {
        LakehouseEvent vera = Api.memberSet(ns, "user", "vera", "viewer");
        try (EventWriter writer = new EventWriter(); EventReader dlq = new EventReader("lakehouse.access.dlq")) {
            // The projection's table is gone for good: every try fails the same way.
            sql("ALTER TABLE member_roles RENAME TO member_roles_gone");
            try {
                writer.send(vera);
                await().atMost(ALL_ATTEMPTS).until(() -> dlq.records(ns).size() == 1);
            } finally {
                sql("ALTER TABLE member_roles_gone RENAME TO member_roles");
            }
            ConsumerRecord<String, byte[]> dead = dlq.records(ns).get(0);
            assertThat(header(dead, "ce_id")).isEqualTo(vera.id().toString());
            assertThat(header(dead, "dead-letter-reason")).startsWith("failed 8 times: ");
            writer.send(Api.memberSet(ns, "user", "after", "viewer"));
            await().atMost(PROPAGATION).until(() -> as("after").get(catalogs(ns)).statusCode() == 200);
            given().get(ready).then().statusCode(200);
            given().get(live).then().statusCode(200);
        }
    }

    @Test
    void anEventWhoseDataTheDatabaseRefusesIsDeadLetteredAtItsFirstTry() {
        // Valid JSON that passes every check, but PostgreSQL refuses NUL in text (SQLSTATE 22021): a retry
        // could only fail again and hold the partition up (a consumer replaying the topic met it 8 times).
        LakehouseEvent poison = Api.memberSet(ns, "user", "nul\u0000byte", "viewer");
        try (EventWriter writer = new EventWriter(); EventReader dlq = new EventReader("lakehouse.access.dlq")) {
            writer.send(poison);
            writer.send(Api.memberSet(ns, "user", "after", "viewer"));
            await().atMost(PROPAGATION).until(() -> as("after").get(catalogs(ns)).statusCode() == 200);
            await().atMost(PROPAGATION).until(() -> dlq.records(ns).size() == 1);
            ConsumerRecord<String, byte[]> dead = dlq.records(ns).get(0);
            assertThat(header(dead, "ce_id")).isEqualTo(poison.id().toString());
            assertThat(header(dead, "dead-letter-reason")).startsWith("data refused by the database: ")
                    .contains("22021");
            assertThat(TestLogs.text().lines().filter(l -> l.contains("event " + poison.id() + " ")
                    && l.contains(" failed, attempt "))).hasSize(1);
            given().get(ready).then().statusCode(200);
        }
    }

    private void sql(String statement) {
        pool.query(statement).execute().await().atMost(PROPAGATION);
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
