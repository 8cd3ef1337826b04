package io.lakehouse.common.instances;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * What a reconcile pass found and what one-off work that allows: the status to save, and tasks
 * (Jobs and their inputs) gated on it, so a task waits for what it needs instead of failing inside
 * its pod. Most kinds have no tasks ({@link #of}).
 *
 * @param status phase and conditions
 * @param enforce objects to apply and keep as built
 * @param createOnce objects to create when missing, never updated (Jobs run once)
 * @param remove live objects to delete (a task to run again)
 */
public record Progress(InstanceStatus.Result status, List<HasMetadata> enforce, List<HasMetadata> createOnce,
        List<HasMetadata> remove) {

    public static Progress of(InstanceStatus.Result status) {
        return new Progress(status, List.of(), List.of(), List.of());
    }
}
