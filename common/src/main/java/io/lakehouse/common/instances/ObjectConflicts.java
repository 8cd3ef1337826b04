package io.lakehouse.common.instances;

import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.kube.Conditions;
import io.lakehouse.common.kube.ForeignObjectException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The status of an instance whose objects cannot be written because an object of the same name
 * belongs to something else: phase Failed, {@code Ready=False} with reason {@code ObjectConflict}
 * naming the object, the other conditions kept.
 */
public final class ObjectConflicts {

    public static final String READY = "Ready";
    public static final String REASON = "ObjectConflict";
    /**
     * The conflicting object is not the instance's, so its deletion triggers no pass of the instance:
     * look again after this long.
     */
    public static final Duration RECHECK = Duration.ofSeconds(30);

    private ObjectConflicts() {}

    public static List<Condition> conditions(List<Condition> previous, ForeignObjectException conflict, long generation,
            Instant now) {
        List<Condition> observed = new ArrayList<>(previous.stream().filter(c -> !c.type().equals(READY)).toList());
        observed.add(new Condition(READY, Condition.FALSE, REASON, conflict.getMessage(), now, generation));
        return Conditions.merge(previous, observed, now);
    }
}
