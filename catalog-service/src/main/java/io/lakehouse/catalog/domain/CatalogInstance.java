package io.lakehouse.catalog.domain;

import io.lakehouse.common.instances.Phase;

import io.lakehouse.common.storage.SealedCredentials;

import io.lakehouse.common.kube.Condition;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** One stored catalog instance: intent (spec, generation) and last observed status. */
public record CatalogInstance(
        String namespace,
        String name,
        UUID uid,
        CatalogSpec spec,
        SealedCredentials sealedCredentials,
        long generation,
        Phase phase,
        List<Condition> conditions,
        boolean deleting,
        String createdBy,
        Instant createdAt) {

    public static final String KIND = "iceberg-catalog";

    public String key() {
        return namespace + "/" + name;
    }
}
