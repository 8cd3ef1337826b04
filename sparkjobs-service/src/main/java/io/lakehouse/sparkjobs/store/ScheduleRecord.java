package io.lakehouse.sparkjobs.store;

import java.time.OffsetDateTime;

/** A stored schedule; {@code form} is the runs' launch form (JSON, no script text, no credential). */
public record ScheduleRecord(String namespace, String name, String cron, String timeZone, String policy,
        int runsKept, boolean suspended, String form, String createdBy, OffsetDateTime createdAt) {

    public ScheduleRecord with(String newCron, String newZone, String newPolicy, Integer newRunsKept,
            Boolean newSuspended) {
        return new ScheduleRecord(namespace, name, newCron != null ? newCron : cron,
                newZone != null ? newZone : timeZone, newPolicy != null ? newPolicy : policy,
                newRunsKept != null ? newRunsKept : runsKept, newSuspended != null ? newSuspended : suspended,
                form, createdBy, createdAt);
    }
}
