package io.lakehouse.common.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

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

    /** A sampled caller's W3C {@code traceparent}, with fresh ids. */
    public static String traceparent() {
        return "00-" + hex(16) + "-" + hex(8) + "-01";
    }

    /** The trace id of a {@code traceparent}. */
    public static String traceId(String traceparent) {
        return traceparent.substring(3, 35);
    }

    private static String hex(int bytes) {
        byte[] b = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(b);
        b[0] |= 1; // never all zeros (an invalid id)
        return HexFormat.of().formatHex(b);
    }
}
