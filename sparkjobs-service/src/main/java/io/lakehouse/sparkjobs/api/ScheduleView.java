package io.lakehouse.sparkjobs.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * A schedule as the API shows it.
 *
 * @param nextRuns the next five run times in the schedule's zone (none while suspended)
 * @param job the runs' launch form (no script text)
 */
public record ScheduleView(String name, String cron, String timeZone, String concurrencyPolicy, int runsKept,
        boolean suspended, String createdBy, OffsetDateTime createdAt, List<String> nextRuns, JsonNode job) {}
