package io.lakehouse.engines.kinds.trino;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.storage.StorageSpec;

/**
 * The fields of the {@code trino} template.
 *
 * @param catalog the {@code iceberg-catalog} of the namespace the {@code lakehouse} catalog uses (fixed)
 * @param warehouse the catalog name on the Polaris side, a property of Trino's {@code lakehouse} catalog (fixed)
 * @param storage the warehouse bucket (the catalog's by default; fixed)
 * @param workers number of worker pods
 * @param coordinatorMemory pod memory of the coordinator (>= 3Gi)
 * @param workerMemory pod memory of each worker (>= 3Gi)
 * @param cpu CPU of each pod
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TrinoSpec(String catalog, String warehouse, StorageSpec storage, Integer workers,
        String coordinatorMemory, String workerMemory, String cpu) implements InstanceSpec {

    @Override
    public TrinoSpec withStorage(StorageSpec newStorage) {
        return new TrinoSpec(catalog, warehouse, newStorage, workers, coordinatorMemory, workerMemory, cpu);
    }
}
