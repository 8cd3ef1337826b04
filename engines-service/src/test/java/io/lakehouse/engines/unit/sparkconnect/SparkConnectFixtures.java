package io.lakehouse.engines.unit.sparkconnect;

import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.engines.kinds.sparkconnect.SparkConnectKind;
import io.lakehouse.engines.kinds.sparkconnect.SparkConnectSpec;
import io.lakehouse.engines.unit.EngineFixtures;
import java.util.Optional;

/** Spark Connect instances for the pure tests: golden files depend on every value here. */
final class SparkConnectFixtures {

    static final SparkConnectKind KIND = new SparkConnectKind();
    static final String NAME = "spark";
    /** Canary keys typed in a form: they must never show up outside a Secret. */
    static final String ACCESS_KEY = "AKIACANARYACCESSKEY";
    static final String SECRET_KEY = "canary-secret-access-key-value";

    private SparkConnectFixtures() {}

    /** Only the catalog: everything else from the template and the catalog fixture. */
    static SparkConnectSpec catalogOnly() {
        return new SparkConnectSpec(EngineFixtures.CATALOG, null, null, null, null, null, null);
    }

    /** Only the catalog: the token is on by default. */
    static Instance defaults() {
        return instance(catalogOnly());
    }

    /** A server that opted out of the token: plain gRPC on 15002. */
    static Instance withoutToken() {
        return instance(new SparkConnectSpec(EngineFixtures.CATALOG, null, null, null, null, null, false));
    }

    /**
     * A token, keys typed in the form, a larger server: as stored, the keys replaced by the
     * {@code <name>-s3} Secret they were written to.
     */
    static Instance production() {
        SparkConnectSpec spec = spec(new SparkConnectSpec(EngineFixtures.CATALOG, "analytics", inlineKeys(), 8,
                "12Gi", "16Gi", true));
        return EngineFixtures.instance(SparkConnectKind.KIND, NAME,
                spec.withStorage(spec.storage().withoutKeys(InstanceObjects.s3Secret(NAME))));
    }

    /** The namespace bucket, with keys typed in the form instead of its Secret. */
    static StorageSpec inlineKeys() {
        StorageSpec bucket = EngineFixtures.bucket();
        return new StorageSpec(bucket.bucket(), bucket.endpoint(), bucket.region(), null, null, ACCESS_KEY,
                SECRET_KEY);
    }

    static Instance instance(SparkConnectSpec requested) {
        return EngineFixtures.instance(SparkConnectKind.KIND, NAME, spec(requested));
    }

    /** The request with its defaults, the catalog fixture known. */
    static SparkConnectSpec spec(SparkConnectSpec requested) {
        return KIND.withDefaults(requested, Optional.of(EngineFixtures.catalog()));
    }
}
