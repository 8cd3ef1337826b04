package io.lakehouse.sparkjobs.domain;

/** What a PATCH of a schedule may change; absent fields stay. The job form is replaced by a new schedule. */
public record SchedulePatch(String cron, String timeZone, String concurrencyPolicy, Integer runsKept) {}
