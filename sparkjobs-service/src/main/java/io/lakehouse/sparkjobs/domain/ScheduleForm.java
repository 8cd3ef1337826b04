package io.lakehouse.sparkjobs.domain;

/**
 * A schedule: a launch form ({@code job}, without a name: runs are named by the operator) run on a
 * 5-field {@code cron} in an IANA {@code timeZone}, with an explicit {@code concurrencyPolicy}
 * ({@code Forbid}, {@code Allow}, {@code Replace}) and the finished runs the operator keeps.
 */
public record ScheduleForm(String name, String cron, String timeZone, String concurrencyPolicy, Integer runsKept,
        LaunchForm job) {}
