package io.lakehouse.engines.unit.nifi;

import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.ResourcesSpec;
import io.lakehouse.engines.kinds.nifi.NifiKind;
import io.lakehouse.engines.kinds.nifi.NifiSpec;
import io.lakehouse.engines.unit.EngineFixtures;
import java.util.Optional;

/** NiFi instances for the pure tests: golden files depend on every value here. */
final class NifiFixtures {

    static final NifiKind KIND = new NifiKind();
    static final String NAME = "flows";

    private NifiFixtures() {}

    /** Every field omitted: the template's defaults. */
    static Instance defaults() {
        return instance(new NifiSpec(null, null, null));
    }

    /** Every field given, as on a production cluster. */
    static Instance sized() {
        return instance(new NifiSpec("6Gi", new ResourcesSpec("8Gi", "4"), "100Gi"));
    }

    static Instance instance(NifiSpec requested) {
        return EngineFixtures.instance(NifiKind.KIND, NAME, spec(requested));
    }

    static NifiSpec spec(NifiSpec requested) {
        return KIND.withDefaults(requested, Optional.empty());
    }
}
