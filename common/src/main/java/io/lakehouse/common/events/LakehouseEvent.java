package io.lakehouse.common.events;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One CloudEvent of the contract. {@code data} is JSON and must never hold a secret value.
 *
 * @param time when the state changed, not when the event was published
 */
public record LakehouseEvent(
        UUID id, String source, EventType type, String subject, Instant time, JsonNode data) {

    public LakehouseEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(data, "data");
    }

    public static LakehouseEvent of(String source, EventType type, String subject, JsonNode data) {
        return new LakehouseEvent(UUID.randomUUID(), source, type, subject, Instant.now(), data);
    }

    /** The subject of an instance: {@code <namespace>/<kind>/<name>}. */
    public static String instanceSubject(String namespace, String kind, String name) {
        return namespace + "/" + kind + "/" + name;
    }

    /** The kind an instance subject names; null when {@code subject} is not {@code <namespace>/<kind>/<name>}. */
    public static String kindOfInstanceSubject(String subject) {
        int first = subject.indexOf('/');
        int second = subject.indexOf('/', first + 1);
        boolean threeParts = first > 0 && second > first + 1 && second < subject.length() - 1
                && subject.indexOf('/', second + 1) < 0;
        return threeParts ? subject.substring(first + 1, second) : null;
    }
}
