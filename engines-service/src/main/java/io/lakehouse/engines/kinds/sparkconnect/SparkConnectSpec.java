package io.lakehouse.engines.kinds.sparkconnect;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.storage.StorageSpec;

/**
 * The fields of the {@code spark-connect} template.
 *
 * @param catalog the {@code iceberg-catalog} of the namespace the {@code lakehouse} Spark catalog uses (fixed)
 * @param warehouse the catalog name on the Polaris side (the catalog's by default; fixed)
 * @param storage the warehouse bucket (the catalog's by default; fixed)
 * @param cores Spark cores: {@code local[N]} and the pod's CPU
 * @param driverMemory Spark (driver) memory, the JVM heap
 * @param podMemory the pod's memory, at least driverMemory + 1Gi
 * @param requireToken clients must present the token of {@code <name>-platform} (over TLS)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SparkConnectSpec(String catalog, String warehouse, StorageSpec storage, Integer cores,
        String driverMemory, String podMemory, Boolean requireToken) implements InstanceSpec {

    @Override
    public SparkConnectSpec withStorage(StorageSpec newStorage) {
        return new SparkConnectSpec(catalog, warehouse, newStorage, cores, driverMemory, podMemory, requireToken);
    }

    /** Whether clients need the token; an omitted value means no. */
    public boolean tokenRequired() {
        return Boolean.TRUE.equals(requireToken);
    }
}
