package io.lakehouse.engines.domain;

import io.lakehouse.common.storage.StorageSpec;

/** The fields of one engine template; each kind has its own record. */
public interface EngineSpec {

    /** The {@code iceberg-catalog} of the same namespace this instance uses, or null. */
    default String catalog() {
        return null;
    }

    /** The S3 storage the instance uses, or null. */
    default StorageSpec storage() {
        return null;
    }

    /** The same spec with another storage block (typed keys are replaced by their Secret's name). */
    default EngineSpec withStorage(StorageSpec storage) {
        return this;
    }
}
