package io.lakehouse.engines.kinds.sparkconnect;

import static io.lakehouse.engines.kinds.sparkconnect.SparkConnectKind.MAX_CORES;
import static io.lakehouse.engines.kinds.sparkconnect.SparkConnectKind.MAX_DRIVER_MEMORY;
import static io.lakehouse.engines.kinds.sparkconnect.SparkConnectKind.MAX_POD_MEMORY;
import static io.lakehouse.engines.kinds.sparkconnect.SparkConnectKind.MIN_CORES;
import static io.lakehouse.engines.kinds.sparkconnect.SparkConnectKind.MIN_DRIVER_MEMORY;
import static io.lakehouse.engines.kinds.sparkconnect.SparkConnectKind.MIN_POD_MEMORY;

import io.lakehouse.common.storage.StorageRules;
import io.lakehouse.common.validation.Names;
import io.lakehouse.common.validation.Quantities;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.common.validation.Warehouses;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/** The template's rules, as pure checks that add every violation of a request. */
final class SparkConnectRules {

    private SparkConnectRules() {}

    static void checkCreate(Violations v, String name, String namespace, List<String> derivedSuffixes,
            SparkConnectSpec spec) {
        Names.checkInstanceName(v, "name", name, namespace, derivedSuffixes);
        if (spec.catalog() == null) {
            v.add("spec.catalog", "is required: an iceberg-catalog of this namespace");
        } else if (!Names.isDns1123Label(spec.catalog())) {
            v.add("spec.catalog", "is not a valid instance name");
        }
        Warehouses.check(v, "spec.warehouse", spec.warehouse());
        StorageRules.check(v, "spec.storage", spec.storage());
        checkCapacity(v, spec);
    }

    static void checkCapacity(Violations v, SparkConnectSpec spec) {
        if (spec.cores() == null) {
            v.add("spec.cores", "is required");
        } else if (spec.cores() < MIN_CORES || spec.cores() > MAX_CORES) {
            v.add("spec.cores", "must be between " + MIN_CORES + " and " + MAX_CORES
                    + " (local[N]: Spark's task threads, and the pod's CPU)");
        }
        Optional<BigDecimal> driver = Quantities.check(v, "spec.driverMemory", spec.driverMemory(),
                MIN_DRIVER_MEMORY, MAX_DRIVER_MEMORY);
        Optional<BigDecimal> pod = Quantities.check(v, "spec.podMemory", spec.podMemory(), MIN_POD_MEMORY,
                MAX_POD_MEMORY);
        if (driver.isEmpty() || pod.isEmpty()) {
            return;
        }
        BigDecimal needed = SparkMemory.withHeadroom(driver.get());
        if (pod.get().compareTo(needed) < 0) {
            v.add("spec.podMemory", "must be at least driverMemory + " + SparkMemory.HEADROOM + " ("
                    + SparkMemory.quantity(needed) + "): Spark needs about 1 Gi of headroom besides its heap");
        }
    }
}
