package io.lakehouse.catalog.domain;

import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.Phase;
import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.storage.SealedCredentials;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A stored {@code iceberg-catalog} instance with its spec typed, as the catalog's builders read it.
 */
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

    public static CatalogInstance of(Instance inst) {
        return new CatalogInstance(inst.namespace(), inst.name(), inst.uid(), (CatalogSpec) inst.spec(),
                inst.sealedCredentials(), inst.generation(), inst.phase(), inst.conditions(), inst.deleting(),
                inst.createdBy(), inst.createdAt());
    }
}
