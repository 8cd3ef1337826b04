package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogRequest;
import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventWriter;
import io.lakehouse.common.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * What Prometheus scrapes from /q/metrics (the chart's ServiceMonitor and alerts read these names):
 * the leader, the reconcile loop, the outbox and the dead-lettered events, next to Quarkus' HTTP metrics.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class MetricsTest {

    private static final Duration PROPAGATION = Duration.ofSeconds(30);

    @TestHTTPResource(value = "/metrics", management = true) // under the management root /q
    URL metricsUrl;

    @Test
    void leaderReconcilePassesAndOutboxAreExposed() {
        await().atMost(PROPAGATION).untilAsserted(() -> assertThat(value("lakehouse_leader")).as(this::ours).isEqualTo(1.0));
        double passes = value("lakehouse_reconcile_passes_total");
        String ns = Callers.freshNamespace();
        asAdmin().body(catalogRequest("metered", "k").toString()).post(catalogs(ns)).then().statusCode(201);

        await().atMost(PROPAGATION).until(() -> value("lakehouse_reconcile_passes_total") > passes);
        // The created event leaves the outbox: nothing waits, nothing is old.
        await().atMost(PROPAGATION).until(() -> value("lakehouse_outbox_backlog") == 0.0
                && value("lakehouse_outbox_oldest_age_seconds") == 0.0);
        String text = metrics();
        assertThat(text).contains("lakehouse_reconcile_errors_total", "lakehouse_reconcile_queue_depth",
                "lakehouse_outbox_parked", "http_server_requests_seconds_count");
    }

    @Test
    void eventsSentToTheDeadLetterTopicAreCountedPerTopic() {
        String series = "lakehouse_consumer_dead_letters_total{topic=\"" + TestTopics.of("lakehouse.instances") + "\"}";
        double before = value(series);
        try (EventWriter writer = new EventWriter()) {
            // No CloudEvents headers at all: malformed, straight to lakehouse.instances.dlq.
            writer.send("lakehouse.instances", "x/y", new RecordHeaders(), "{}".getBytes(StandardCharsets.UTF_8));
        }
        await().atMost(PROPAGATION).until(() -> value(series) == before + 1);
    }

    private String metrics() {
        return given().get(metricsUrl).then().statusCode(200).extract().asString();
    }

    /** The suite's own lines of the scrape, for failure messages. */
    private String ours() {
        return String.join("\n", metrics().lines().filter(l -> l.startsWith("lakehouse_")).toList());
    }

    /**
     * The value of a series ("name" or "name{labels}"), 0 when absent. The scrape is in the 0.0.4 text format
     * (rest-assured's Accept is {@code *}{@code /*}), which never carries exemplars (MetricsExemplarsTest)
     * and writes a comma after the last label ({@code {topic="t",}}).
     */
    private double value(String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + "(?:\\{[^}]*\\})? (\\S+)$")
                .matcher(metrics().replace(",}", "}"));
        return m.find() ? Double.parseDouble(m.group(1)) : 0.0;
    }
}
