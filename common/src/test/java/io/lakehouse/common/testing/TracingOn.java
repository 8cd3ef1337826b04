package io.lakehouse.common.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The test profile of the classes that look at traces: the OpenTelemetry SDK on (the other tests run
 * with it off, as locally), no collector (the finished spans go to the class's in-memory exporter, a
 * {@code SpanExporter} bean Quarkus' default "cdi" exporter picks up), exported within 50 ms.
 */
public class TracingOn implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.otel.sdk.disabled", "false",
                "quarkus.otel.exporter.otlp.enabled", "false",
                "quarkus.otel.bsp.schedule.delay", "50ms");
    }
}
