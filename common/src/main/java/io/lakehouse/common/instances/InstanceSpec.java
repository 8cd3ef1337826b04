package io.lakehouse.common.instances;

import io.lakehouse.common.storage.StorageSpec;

/** The fields of one template; each kind has its own record. */
public interface InstanceSpec {

    /** The {@code iceberg-catalog} of the same namespace this instance uses, or null. */
    default String catalog() {
        return null;
    }

    /** The S3 storage the instance uses, or null. */
    default StorageSpec storage() {
        return null;
    }

    /** The same spec with another storage block (typed keys are replaced by their Secret's name). */
    default InstanceSpec withStorage(StorageSpec storage) {
        return this;
    }
}
