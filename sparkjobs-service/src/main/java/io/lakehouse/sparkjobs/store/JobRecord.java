package io.lakehouse.sparkjobs.store;

import java.time.OffsetDateTime;

/**
 * A job of the history.
 *
 * @param form the launch form (JSON, no script text, no credential); null for a job made by hand
 */
public record JobRecord(String namespace, String name, String state, String sourceType, String profile,
        String schedule, String form, String createdBy, OffsetDateTime createdAt, OffsetDateTime startedAt,
        OffsetDateTime endedAt, String error) {

    public boolean handMade() {
        return form == null;
    }
}
