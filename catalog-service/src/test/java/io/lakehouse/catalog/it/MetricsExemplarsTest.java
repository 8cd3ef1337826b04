package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogRequest;
import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lakehouse.common.events.TraceContext;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.TracingOn;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Exemplars ({@code # {span_id=…,trace_id=…}} after a counter's value) link a sample to its trace, and
 * only the OpenMetrics format has them: /q/metrics answers OpenMetrics to a scraper that ranks it first
 * (Prometheus' Accept header), the 0.0.4 text format, never with an exemplar, to everyone else (no
 * Accept header, {@code *}{@code /*}, text/plain), with tracing on.
 */
@QuarkusTest
@TestProfile(TracingOn.class)
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class MetricsExemplarsTest {

    /** What Prometheus 2 sends when it scrapes. */
    private static final String PROMETHEUS = "application/openmetrics-text;version=1.0.0,"
            + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
    private static final String EXEMPLAR = "(?m)^lakehouse_reconcile_passes_total \\S+ # \\{span_id=\"[0-9a-f]{16}\","
            + "trace_id=\"[0-9a-f]{32}\"} .*$";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TestHTTPResource(value = "/metrics", management = true) // under the management root /q
    URL metricsUrl;

    @Test
    void exemplarsOnlyInTheOpenMetricsFormatPrometheusAsksFor() {
        // A traced request: its catalog's reconcile passes count inside a sampled span.
        asAdmin().header(TraceContext.HEADER, TracingOn.traceparent())
                .body(catalogRequest("exemplar", "k").toString()).post(catalogs(Callers.freshNamespace()))
                .then().statusCode(201);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            HttpResponse<String> prometheus = scrape(PROMETHEUS);
            assertThat(prometheus.headers().firstValue("Content-Type")).hasValue(
                    "application/openmetrics-text; version=1.0.0; charset=utf-8");
            assertThat(prometheus.body()).containsPattern(EXEMPLAR).endsWith("# EOF\n");
        });
        for (String accept : Arrays.asList(null, "*/*", "text/plain", "text/plain;version=0.0.4")) {
            HttpResponse<String> text = scrape(accept);
            assertThat(text.headers().firstValue("Content-Type")).as("Accept: %s", accept)
                    .hasValue("text/plain; version=0.0.4; charset=utf-8");
            assertThat(text.body()).as("Accept: %s", accept).contains("lakehouse_reconcile_passes_total ")
                    .doesNotContain(" # {", "# EOF");
        }
    }

    private HttpResponse<String> scrape(String accept) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(metricsUrl.toString())).GET();
        if (accept != null) {
            request.header("Accept", accept);
        }
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            return response;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
