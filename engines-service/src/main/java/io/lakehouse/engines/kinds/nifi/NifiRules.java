package io.lakehouse.engines.kinds.nifi;

import io.lakehouse.common.validation.Names;
import io.lakehouse.common.validation.Quantities;
import io.lakehouse.common.validation.Violations;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/** The template's rules, as pure checks that collect every violation of a request. */
final class NifiRules {

    static final String MIN_HEAP = "1Gi";
    static final String MAX_HEAP = "64Gi";
    static final String HEADROOM = "1Gi";
    static final String MIN_MEMORY = "2Gi";
    static final String MAX_MEMORY = "128Gi";
    static final String MIN_CPU = "500m";
    static final String MAX_CPU = "32";
    static final String MIN_VOLUME = "1Gi";
    static final String MAX_VOLUME = "10Ti";
    /**
     * The StatefulSet controller labels each pod {@code controller-revision-hash=<name>-<10-char
     * hash>}, a label value of at most 63 characters; this also keeps the pod {@code <name>-0} and its
     * PVC {@code data-<name>-0} within 63.
     */
    static final int MAX_NAME = 52;

    private NifiRules() {}

    static void checkName(Violations v, String name, String namespace, List<String> derivedSuffixes) {
        Names.checkInstanceName(v, "name", name, namespace, derivedSuffixes);
        if (!v.has("name") && name.length() > MAX_NAME) {
            v.add("name", "is too long: at most " + MAX_NAME + " characters here, so that the StatefulSet's pod '"
                    + NifiNames.pod(name) + "', its volume '" + NifiNames.claim(name)
                    + "' and its controller-revision-hash label fit in 63");
        }
    }

    static void checkCapacity(Violations v, NifiSpec spec) {
        Optional<BigDecimal> heap = Quantities.check(v, "spec.heap", spec.heap(), MIN_HEAP, MAX_HEAP);
        Optional<BigDecimal> memory = Quantities.check(v, "spec.resources.memory", spec.resources().memory(),
                MIN_MEMORY, MAX_MEMORY);
        Quantities.check(v, "spec.resources.cpu", spec.resources().cpu(), MIN_CPU, MAX_CPU);
        if (heap.isPresent() && memory.isPresent()) {
            BigDecimal needed = heap.get().add(Quantities.parse(HEADROOM).orElseThrow());
            if (memory.get().compareTo(needed) < 0) {
                v.add("spec.resources.memory", "must be at least " + ByteSizes.format(needed) + " (heap "
                        + spec.heap() + " + " + HEADROOM + "): keep about 1 Gi of headroom between the heap and"
                        + " the limit for the JVM's other memory");
            }
        }
    }

    static void checkVolume(Violations v, NifiSpec spec) {
        Quantities.check(v, "spec.volumeSize", spec.volumeSize(), MIN_VOLUME, MAX_VOLUME);
    }
}
