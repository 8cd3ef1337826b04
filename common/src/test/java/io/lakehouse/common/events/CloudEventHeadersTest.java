package io.lakehouse.common.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import org.apache.kafka.common.header.Headers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CloudEventHeadersTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID ID = UUID.fromString("6b1f0c1e-6d2a-4c51-9d53-0d4f3e2a1b10");
    private static final Instant TIME = Instant.parse("2026-03-04T05:06:07.123456Z");

    private static LakehouseEvent event() {
        ObjectNode data = JSON.createObjectNode().put("phase", "Ready").put("generation", 3);
        return new LakehouseEvent(ID, "/lakehouse/catalog-service", EventType.INSTANCE_READY,
                LakehouseEvent.instanceSubject("team-a", "iceberg-catalog", "cat"), TIME, data);
    }

    private static String header(Headers headers, String key) {
        return new String(headers.lastHeader(key).value(), StandardCharsets.UTF_8);
    }

    private static Headers headers() {
        return CloudEventHeaders.headersOf(event());
    }

    private static byte[] value() {
        return CloudEventHeaders.valueOf(event());
    }

    private static Headers with(String key, String value) {
        Headers headers = headers();
        headers.remove(key);
        headers.add(key, value.getBytes(StandardCharsets.UTF_8));
        return headers;
    }

    private static Headers without(String key) {
        Headers headers = headers();
        headers.remove(key);
        return headers;
    }

    @Test
    void theRecordCarriesTheWritersTraceContextAndItsConsumerContinuesIt() {
        String traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        Headers headers = CloudEventHeaders.record(event(), traceparent).headers();
        assertThat(header(headers, TraceContext.HEADER)).isEqualTo(traceparent);
        SpanContext parent = Span.fromContext(TraceContext.of(headers)).getSpanContext();
        assertThat(parent.getTraceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
        assertThat(parent.getSpanId()).isEqualTo("b7ad6b7169203331");
        assertThat(parent.isRemote()).isTrue();

        Headers untraced = CloudEventHeaders.record(event(), null).headers();
        assertThat(untraced.lastHeader(TraceContext.HEADER)).isNull();
        assertThat(Span.fromContext(TraceContext.of(untraced)).getSpanContext().isValid()).isFalse();
    }

    @Test
    void writesTheCloudEventsAttributesAsCeHeaders() {
        Headers headers = headers();
        assertThat(header(headers, "ce_specversion")).isEqualTo("1.0");
        assertThat(header(headers, "ce_id")).isEqualTo(ID.toString());
        assertThat(header(headers, "ce_source")).isEqualTo("/lakehouse/catalog-service");
        assertThat(header(headers, "ce_type")).isEqualTo("lakehouse.instance.ready.v1");
        assertThat(header(headers, "ce_subject")).isEqualTo("team-a/iceberg-catalog/cat");
        assertThat(header(headers, "ce_time")).isEqualTo("2026-03-04T05:06:07.123456Z");
        assertThat(header(headers, "content-type")).isEqualTo("application/json");
    }

    @Test
    void theSubjectUsedAsRecordKeyIsNamespaceKindName() {
        assertThat(LakehouseEvent.instanceSubject("team-a", "iceberg-catalog", "cat"))
                .isEqualTo("team-a/iceberg-catalog/cat");
    }

    @Test
    void theValueIsTheDataAsJson() throws Exception {
        assertThat(JSON.readTree(value())).isEqualTo(event().data());
    }

    @Test
    void readsBackTheSameEvent() {
        assertThat(CloudEventHeaders.read(headers(), value())).contains(event());
    }

    @Test
    void everyEventTypeRoundTrips() {
        for (EventType type : EventType.values()) {
            LakehouseEvent e = new LakehouseEvent(ID, "src", type, "s", TIME, JSON.createObjectNode());
            assertThat(CloudEventHeaders.read(CloudEventHeaders.headersOf(e), CloudEventHeaders.valueOf(e)))
                    .as(type.name()).contains(e);
        }
    }

    @Test
    void anUnknownTypeIsEmptyToBeAcknowledgedAndIgnored() {
        assertThat(CloudEventHeaders.read(with("ce_type", "lakehouse.instance.ready.v2"), value())).isEmpty();
        assertThat(CloudEventHeaders.read(with("ce_type", "com.example.other"), value())).isEmpty();
    }

    @Test
    void anUnknownTypeIsEmptyEvenWhenTheRestIsNotReadable() {
        Headers headers = with("ce_type", "lakehouse.future.v1");
        headers.remove("ce_id");
        assertThat(CloudEventHeaders.read(headers, "[]".getBytes(StandardCharsets.UTF_8))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ce_type", "ce_specversion", "ce_id", "ce_time", "ce_source", "ce_subject"})
    void aMissingHeaderIsMalformed(String key) {
        assertThatThrownBy(() -> CloudEventHeaders.read(without(key), value()))
                .isInstanceOf(MalformedEventException.class)
                .hasMessageContaining(key);
    }

    @Test
    void aBadUuidIsMalformed() {
        assertThatThrownBy(() -> CloudEventHeaders.read(with("ce_id", "not-a-uuid"), value()))
                .isInstanceOf(MalformedEventException.class);
    }

    @Test
    void aBadTimeIsMalformed() {
        assertThatThrownBy(() -> CloudEventHeaders.read(with("ce_time", "yesterday"), value()))
                .isInstanceOf(MalformedEventException.class);
    }

    @Test
    void anotherSpecVersionIsMalformed() {
        assertThatThrownBy(() -> CloudEventHeaders.read(with("ce_specversion", "0.3"), value()))
                .isInstanceOf(MalformedEventException.class)
                .hasMessageContaining("ce_specversion");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[1,2]", "\"text\"", "42", "null", "", "{not json"})
    void dataThatIsNotAJsonObjectIsMalformed(String data) {
        assertThatThrownBy(() -> CloudEventHeaders.read(headers(), data.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(MalformedEventException.class);
    }

    @Test
    void noValueIsMalformed() {
        assertThatThrownBy(() -> CloudEventHeaders.read(headers(), null)).isInstanceOf(MalformedEventException.class);
    }
}
