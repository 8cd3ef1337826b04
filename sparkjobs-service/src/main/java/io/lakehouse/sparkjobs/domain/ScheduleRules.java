package io.lakehouse.sparkjobs.domain;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import io.lakehouse.common.problem.FieldError;
import io.lakehouse.common.validation.Names;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Checks of a schedule, pure; the cron parsed by cron-utils (standard 5-field, as the operator's parser). */
public final class ScheduleRules {

    /**
     * The operator names runs {@code <schedule>-<19-digit timestamp>} and their drivers
     * {@code <run>-driver}: 36 keeps those a DNS label.
     */
    public static final int MAX_NAME = 36;
    static final int MAX_RUNS_KEPT = 50;
    public static final int DEFAULT_RUNS_KEPT = 3;
    public static final Set<String> POLICIES = Set.of("Forbid", "Allow", "Replace");
    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

    private ScheduleRules() {}

    public static List<FieldError> check(ScheduleForm form) {
        List<FieldError> errors = new ArrayList<>();
        if (form.name() == null || !Names.isDns1035Label(form.name()) || form.name().length() > MAX_NAME) {
            errors.add(new FieldError("name", "must be a DNS-1035 label of at most " + MAX_NAME + " characters"));
        }
        checkTiming(form.cron(), form.timeZone(), form.concurrencyPolicy(), form.runsKept(), true, errors);
        if (form.job() == null) {
            errors.add(new FieldError("job", "the launch form of the runs is required"));
        } else if (form.job().name() != null) {
            errors.add(new FieldError("job.name", "runs are named after the schedule"));
        }
        return errors;
    }

    public static List<FieldError> check(SchedulePatch patch) {
        List<FieldError> errors = new ArrayList<>();
        checkTiming(patch.cron(), patch.timeZone(), patch.concurrencyPolicy(), patch.runsKept(), false, errors);
        return errors;
    }

    private static void checkTiming(String cron, String zone, String policy, Integer runsKept, boolean required,
            List<FieldError> errors) {
        if (cron != null || required) {
            parse(cron).ifPresentOrElse(c -> { }, () -> errors.add(new FieldError("cron",
                    "must be a 5-field cron expression (minute hour day-of-month month day-of-week)")));
        }
        if ((zone != null || required) && zone(zone).isEmpty()) {
            errors.add(new FieldError("timeZone", "must be an IANA time zone such as Europe/Paris or UTC"));
        }
        if ((policy != null || required) && (policy == null || !POLICIES.contains(policy))) {
            errors.add(new FieldError("concurrencyPolicy", "must be Forbid, Allow or Replace"));
        }
        if (runsKept != null && (runsKept < 1 || runsKept > MAX_RUNS_KEPT)) {
            errors.add(new FieldError("runsKept", "must be between 1 and " + MAX_RUNS_KEPT));
        }
    }

    /** The next {@code count} run times after {@code from}, in the schedule's zone. */
    public static List<ZonedDateTime> nextRuns(String cron, String zone, ZonedDateTime from, int count) {
        ExecutionTime times = ExecutionTime.forCron(parse(cron).orElseThrow());
        List<ZonedDateTime> next = new ArrayList<>();
        ZonedDateTime at = from.withZoneSameInstant(zone(zone).orElseThrow());
        for (int i = 0; i < count; i++) {
            Optional<ZonedDateTime> n = times.nextExecution(at);
            if (n.isEmpty()) {
                break;
            }
            next.add(n.get());
            at = n.get();
        }
        return next;
    }

    static Optional<Cron> parse(String cron) {
        if (cron == null || cron.length() > 120 || cron.trim().split("\\s+").length != 5) {
            return Optional.empty();
        }
        try {
            return Optional.of(PARSER.parse(cron.trim()).validate());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Region ids only (no offsets such as +02:00, which the operator's Go parser refuses). */
    static Optional<ZoneId> zone(String zone) {
        if (zone == null || !(ZoneId.getAvailableZoneIds().contains(zone) || "UTC".equals(zone))) {
            return Optional.empty();
        }
        return Optional.of(ZoneId.of(zone));
    }
}
