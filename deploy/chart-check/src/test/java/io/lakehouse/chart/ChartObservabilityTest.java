package io.lakehouse.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What operators read from the services in a cluster: JSON console logs, switchable by a value; traces
 * once a collector's endpoint is given.
 */
class ChartObservabilityTest {

    private static final String JSON_LOGS = "QUARKUS_LOG_CONSOLE_JSON_ENABLED";

    @Test
    void everyServiceLogsJsonInTheClusterByDefault() {
        assertThat(envOfEveryService(render())).hasSize(5)
                .allSatisfy((service, env) -> assertThat(env).as(service).containsEntry(JSON_LOGS, "true"));
        assertThat(envOfEveryService(render("-f", Helm.CHART.resolve("values-production.yaml").toString())))
                .allSatisfy((service, env) -> assertThat(env).as(service).containsEntry(JSON_LOGS, "true"));
    }

    @Test
    void plainTextLogsAreAValueAway() {
        assertThat(envOfEveryService(render("--set", "observability.jsonLogs=false")))
                .allSatisfy((service, env) -> assertThat(env).as(service).containsEntry(JSON_LOGS, "false"));
    }

    @Test
    void tracesAreOffUntilAnEndpointIsGiven() {
        assertThat(envOfEveryService(render())).hasSize(5).allSatisfy((service, env) -> assertThat(env).as(service)
                .containsEntry("QUARKUS_OTEL_SDK_DISABLED", "true")
                .doesNotContainKey("QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT"));
        assertThat(envOfEveryService(render("--set", "observability.tracing.endpoint=http://otel-collector.obs.svc:4317",
                "--set", "observability.tracing.sampleRatio=0.25")))
                .hasSize(5).allSatisfy((service, env) -> assertThat(env).as(service).containsAllEntriesOf(Map.of(
                        "QUARKUS_OTEL_SDK_DISABLED", "false",
                        "QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel-collector.obs.svc:4317",
                        "QUARKUS_OTEL_TRACES_SAMPLER", "parentbased_traceidratio",
                        "QUARKUS_OTEL_TRACES_SAMPLER_ARG", "0.25")));
    }

    private static List<JsonNode> render(String... args) {
        return StrictManifests.documents(Helm.template(args).requireSuccess(List.of(args)).out());
    }

    /** Deployment name → its container's plain (name, value) environment variables. */
    static Map<String, Map<String, String>> envOfEveryService(List<JsonNode> docs) {
        Map<String, Map<String, String>> services = new TreeMap<>();
        docs.stream().filter(d -> "Deployment".equals(d.path("kind").asText()))
                .filter(d -> d.path("metadata").path("name").asText().endsWith("-service"))
                .forEach(d -> {
                    Map<String, String> env = new TreeMap<>();
                    d.path("spec").path("template").path("spec").path("containers").get(0).path("env")
                            .forEach(e -> {
                                if (e.has("value")) {
                                    env.put(e.path("name").asText(), e.path("value").asText());
                                }
                            });
                    services.put(d.path("metadata").path("name").asText(), env);
                });
        return services;
    }
}
