package io.lakehouse.common.instances;

import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.storage.SealedCredentials;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** One stored instance of any kind: intent (kind, spec, generation) and last observed status. */
public record Instance(
        String namespace,
        String name,
        String kind,
        UUID uid,
        InstanceSpec spec,
        SealedCredentials sealedCredentials,
        long generation,
        Phase phase,
        List<Condition> conditions,
        boolean deleting,
        String createdBy,
        Instant createdAt) {}
