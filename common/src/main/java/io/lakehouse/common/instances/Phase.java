package io.lakehouse.common.instances;

import io.lakehouse.common.events.EventType;
import java.util.Optional;

/** Lifecycle phase of an instance, as the API shows it. */
public enum Phase {
    /** Stored, nothing applied yet. */
    Pending,
    /** Objects applied, workloads not ready yet. */
    Deploying,
    /** Pods ready, but not usable yet (e.g. the catalog's realm or catalog not created yet). */
    Running,
    /** Usable. */
    Ready,
    /** Was Ready, lost a part since. */
    Degraded,
    /** A task failed; the condition says why. */
    Failed,
    /** Being deleted. */
    Deleting;

    /** The {@code instance.*} event announcing a change to this phase, if it has one. */
    public Optional<EventType> event() {
        return switch (this) {
            case Running -> Optional.of(EventType.INSTANCE_RUNNING);
            case Ready -> Optional.of(EventType.INSTANCE_READY);
            case Degraded -> Optional.of(EventType.INSTANCE_DEGRADED);
            case Failed -> Optional.of(EventType.INSTANCE_FAILED);
            default -> Optional.empty();
        };
    }
}
