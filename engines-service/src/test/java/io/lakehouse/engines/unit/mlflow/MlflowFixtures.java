package io.lakehouse.engines.unit.mlflow;

import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.instances.ResourcesSpec;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.engines.kinds.mlflow.DatabaseSpec;
import io.lakehouse.engines.kinds.mlflow.MlflowKind;
import io.lakehouse.engines.kinds.mlflow.MlflowSpec;
import io.lakehouse.engines.unit.EngineFixtures;
import java.util.Optional;

/** MLflow instances for the pure tests: golden files depend on every value here. */
final class MlflowFixtures {

    static final MlflowKind KIND = new MlflowKind();
    static final String NAME = "tracking";
    /** Canary keys typed in a form: they must never show up outside a Secret. */
    static final String ACCESS_KEY = "AKIACANARYACCESSKEY";
    static final String SECRET_KEY = "canary-secret-access-key-value";

    private MlflowFixtures() {}

    /** Only the bucket (a namespace bucket with its Secret): everything else from the template. */
    static MlflowSpec bucketOnly() {
        return new MlflowSpec(EngineFixtures.bucket(), null, null, null, null);
    }

    static Instance defaults() {
        return instance(bucketOnly());
    }

    /** Every field given, keys typed in the form: as stored, the keys replaced by {@code <name>-s3}. */
    static Instance production() {
        MlflowSpec spec = spec(new MlflowSpec(inlineKeys(), "experiments/team-a", 4, new ResourcesSpec("4Gi", "2"),
                new DatabaseSpec("20Gi")));
        return EngineFixtures.instance(MlflowKind.KIND, NAME,
                spec.withStorage(spec.storage().withoutKeys(InstanceObjects.s3Secret(NAME))));
    }

    static StorageSpec inlineKeys() {
        StorageSpec bucket = EngineFixtures.bucket();
        return new StorageSpec(bucket.bucket(), bucket.endpoint(), bucket.region(), null, null, ACCESS_KEY,
                SECRET_KEY);
    }

    static Instance instance(MlflowSpec requested) {
        return EngineFixtures.instance(MlflowKind.KIND, NAME, spec(requested));
    }

    static MlflowSpec spec(MlflowSpec requested) {
        return KIND.withDefaults(requested, Optional.empty());
    }
}
