package io.lakehouse.engines.kinds.mlflow;

import static io.lakehouse.engines.kinds.mlflow.MlflowKind.MAX_CPU;
import static io.lakehouse.engines.kinds.mlflow.MlflowKind.MAX_MEMORY;
import static io.lakehouse.engines.kinds.mlflow.MlflowKind.MAX_STORAGE;
import static io.lakehouse.engines.kinds.mlflow.MlflowKind.MAX_WORKERS;
import static io.lakehouse.engines.kinds.mlflow.MlflowKind.MIN_CPU;
import static io.lakehouse.engines.kinds.mlflow.MlflowKind.MIN_MEMORY;
import static io.lakehouse.engines.kinds.mlflow.MlflowKind.MIN_STORAGE;
import static io.lakehouse.engines.kinds.mlflow.MlflowKind.MIN_WORKERS;

import io.lakehouse.common.instances.ResourcesSpec;
import io.lakehouse.common.storage.StorageRules;
import io.lakehouse.common.validation.Names;
import io.lakehouse.common.validation.Quantities;
import io.lakehouse.common.validation.Violations;
import java.util.List;
import java.util.regex.Pattern;

/** The template's rules, as pure checks that add every violation of a request. */
final class MlflowRules {

    /** CloudNativePG's webhook refuses longer Cluster names. */
    static final int MAX_CNPG_CLUSTER_NAME = 50;
    static final int MAX_PREFIX = 200;
    /** Segments of letters, digits, '.', '_' and '-' not starting with '.', joined by single '/'. */
    private static final Pattern PREFIX =
            Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]*(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*");

    private MlflowRules() {}

    static void checkCreate(Violations v, String name, String namespace, List<String> derivedSuffixes,
            MlflowSpec spec) {
        Names.checkInstanceName(v, "name", name, namespace, derivedSuffixes);
        if (!v.has("name") && MlflowNames.database(name).length() > MAX_CNPG_CLUSTER_NAME) {
            v.add("name", "is too long: the database cluster '" + MlflowNames.database(name) + "' may have at most "
                    + MAX_CNPG_CLUSTER_NAME + " characters (CloudNativePG), so at most "
                    + (MAX_CNPG_CLUSTER_NAME - MlflowNames.DATABASE_SUFFIX.length()) + " here");
        }
        StorageRules.check(v, "spec.storage", spec.storage());
        String prefix = spec.artifactsPrefix();
        if (prefix == null || prefix.length() > MAX_PREFIX || !PREFIX.matcher(prefix).matches()) {
            v.add("spec.artifactsPrefix", "must be an S3 key prefix of at most " + MAX_PREFIX + " characters:"
                    + " letters, digits, '.', '_' and '-' in segments separated by single '/', no segment starting"
                    + " with '.', no leading or trailing '/'");
        }
        checkCapacity(v, spec);
    }

    static void checkCapacity(Violations v, MlflowSpec spec) {
        if (spec.workers() == null) {
            v.add("spec.workers", "is required");
        } else if (spec.workers() < MIN_WORKERS || spec.workers() > MAX_WORKERS) {
            v.add("spec.workers", "must be between " + MIN_WORKERS + " and " + MAX_WORKERS);
        }
        ResourcesSpec resources = spec.resources() == null ? new ResourcesSpec(null, null) : spec.resources();
        Quantities.check(v, "spec.resources.memory", resources.memory(), MIN_MEMORY, MAX_MEMORY);
        Quantities.check(v, "spec.resources.cpu", resources.cpu(), MIN_CPU, MAX_CPU);
        Quantities.check(v, "spec.database.storageSize", spec.database() == null ? null : spec.database().storageSize(),
                MIN_STORAGE, MAX_STORAGE);
    }
}
