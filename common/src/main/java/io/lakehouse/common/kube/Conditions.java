package io.lakehouse.common.kube;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Merges newly observed conditions into the previous ones, keeping transition times stable. */
public final class Conditions {

    private Conditions() {}

    /**
     * The observed conditions, each keeping its previous {@code lastTransitionTime} when its status
     * did not change; {@code now} only for a flip or a new type.
     */
    public static List<Condition> merge(List<Condition> previous, List<Condition> observed, Instant now) {
        List<Condition> merged = new ArrayList<>(observed.size());
        for (Condition next : observed) {
            Instant since = find(previous, next.type())
                    .filter(old -> old.status().equals(next.status()))
                    .map(Condition::lastTransitionTime)
                    .orElse(now);
            merged.add(new Condition(next.type(), next.status(), next.reason(), next.message(), since,
                    next.observedGeneration()));
        }
        return merged;
    }

    public static Optional<Condition> find(List<Condition> conditions, String type) {
        return conditions.stream().filter(c -> c.type().equals(type)).findFirst();
    }

    public static boolean isTrue(List<Condition> conditions, String type) {
        return find(conditions, type).map(Condition::isTrue).orElse(false);
    }
}
