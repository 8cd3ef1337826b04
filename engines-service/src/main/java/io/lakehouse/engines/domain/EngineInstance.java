package io.lakehouse.engines.domain;

import io.lakehouse.common.instances.Phase;
import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.storage.SealedCredentials;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** One stored engine instance: intent (kind, spec, generation) and last observed status. */
public record EngineInstance(
        String namespace,
        String name,
        String kind,
        UUID uid,
        EngineSpec spec,
        SealedCredentials sealedCredentials,
        long generation,
        Phase phase,
        List<Condition> conditions,
        boolean deleting,
        String createdBy,
        Instant createdAt) {}
