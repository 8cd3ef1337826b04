package io.lakehouse.common.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * CloudEvents 1.0 Kafka binding, binary mode: attributes in {@code ce_*} headers, data as the JSON
 * record value, record key = subject.
 */
public final class CloudEventHeaders {

    private static final String SPEC_VERSION = "1.0";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Parses stored event data (the outbox keeps it as JSON text). */
    public static JsonNode parseData(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new MalformedEventException("stored event data is not JSON");
        }
    }

    private CloudEventHeaders() {}

    public static Headers headersOf(LakehouseEvent event) {
        RecordHeaders headers = new RecordHeaders();
        add(headers, "ce_specversion", SPEC_VERSION);
        add(headers, "ce_id", event.id().toString());
        add(headers, "ce_source", event.source());
        add(headers, "ce_type", event.type().cloudEventType());
        add(headers, "ce_subject", event.subject());
        add(headers, "ce_time", event.time().toString());
        add(headers, "content-type", "application/json");
        return headers;
    }

    /**
     * The Kafka record of an event: its topic, key = subject, {@code ce_*} headers, JSON data, and the
     * {@link TraceContext#HEADER} of the request that wrote it (none when null).
     */
    public static ProducerRecord<String, byte[]> record(LakehouseEvent event, String traceparent) {
        return record("", event, traceparent);
    }

    /** {@link #record(LakehouseEvent, String)} on the event's topic behind {@code topicPrefix}. */
    public static ProducerRecord<String, byte[]> record(String topicPrefix, LakehouseEvent event, String traceparent) {
        Headers headers = headersOf(event);
        if (traceparent != null) {
            add(headers, TraceContext.HEADER, traceparent);
        }
        return new ProducerRecord<>(topicPrefix + event.type().topic().topicName(), null, event.subject(),
                valueOf(event), headers);
    }

    public static byte[] valueOf(LakehouseEvent event) {
        try {
            return JSON.writeValueAsBytes(event.data());
        } catch (IOException e) {
            throw new IllegalStateException("event data is not serializable", e);
        }
    }

    /**
     * Reads an event back. Empty when the type is unknown or newer (to be acknowledged and
     * ignored); {@link MalformedEventException} when the record is not a valid event at all.
     */
    public static Optional<LakehouseEvent> read(Headers headers, byte[] value) {
        String type = required(headers, "ce_type");
        Optional<EventType> known = EventType.fromCloudEventType(type);
        if (known.isEmpty()) {
            return Optional.empty();
        }
        if (!SPEC_VERSION.equals(required(headers, "ce_specversion"))) {
            throw new MalformedEventException("unsupported ce_specversion");
        }
        try {
            UUID id = UUID.fromString(required(headers, "ce_id"));
            Instant time = Instant.parse(required(headers, "ce_time"));
            JsonNode data = value == null ? null : JSON.readTree(value);
            if (data == null || !data.isObject()) {
                throw new MalformedEventException("data is not a JSON object");
            }
            return Optional.of(new LakehouseEvent(
                    id, required(headers, "ce_source"), known.get(), required(headers, "ce_subject"), time, data));
        } catch (IllegalArgumentException | DateTimeParseException | IOException e) {
            throw new MalformedEventException("malformed event: " + e.getMessage());
        }
    }

    private static void add(Headers headers, String key, String value) {
        headers.add(key, value.getBytes(StandardCharsets.UTF_8));
    }

    /** The record's {@code ce_subject}, read without the rest of the event; null when it has none. */
    public static String subject(Headers headers) {
        return optional(headers, "ce_subject");
    }

    private static String required(Headers headers, String key) {
        String value = optional(headers, key);
        if (value == null) {
            throw new MalformedEventException("missing header " + key);
        }
        return value;
    }

    private static String optional(Headers headers, String key) {
        Header header = headers.lastHeader(key);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
