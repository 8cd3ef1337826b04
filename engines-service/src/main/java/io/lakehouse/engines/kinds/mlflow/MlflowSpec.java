package io.lakehouse.engines.kinds.mlflow;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.instances.ResourcesSpec;
import io.lakehouse.common.storage.StorageSpec;

/**
 * The fields of the {@code mlflow} template.
 *
 * @param storage the artifacts bucket (fixed)
 * @param artifactsPrefix the key prefix of the artifacts in the bucket (fixed)
 * @param workers server processes
 * @param resources memory and CPU of the server
 * @param database the PostgreSQL database of experiments, runs and the model registry
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MlflowSpec(StorageSpec storage, String artifactsPrefix, Integer workers, ResourcesSpec resources,
        DatabaseSpec database) implements InstanceSpec {

    @Override
    public MlflowSpec withStorage(StorageSpec newStorage) {
        return new MlflowSpec(newStorage, artifactsPrefix, workers, resources, database);
    }

    /** Where the server writes artifacts: {@code s3://<bucket>/<prefix>}. */
    public String artifactsDestination() {
        return "s3://" + storage.bucket() + "/" + artifactsPrefix;
    }
}
