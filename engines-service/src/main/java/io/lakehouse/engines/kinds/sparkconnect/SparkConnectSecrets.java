package io.lakehouse.engines.kinds.sparkconnect;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.lakehouse.common.crypto.RandomValues;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.tls.InternalTls;
import io.lakehouse.engines.tls.TlsSecrets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The Secrets generated once for a Spark Connect instance that requires a token. */
final class SparkConnectSecrets {

    static final String TOKEN = "token";
    /** No renewal yet: a long validity, as for Trino. */
    static final Duration TLS_VALIDITY = Duration.ofDays(3650);

    private SparkConnectSecrets() {}

    /** {@code <name>-platform}: the shared connection token. */
    static Secret platform(Instance inst, EngineContext ctx, OwnerReference owner) {
        return InstanceObjects.secret(SparkConnectNames.platform(inst.name()), SparkConnectNames.APP, inst, ctx,
                "credentials", owner, Map.of(TOKEN, RandomValues.token(32)));
    }

    /**
     * {@code <name>-tls}: the TLS proxy's certificate for the Service's names; clients verify it
     * with {@code ca.crt}. No public name: the server has no route out of the cluster.
     */
    static Secret tls(Instance inst, EngineContext ctx, OwnerReference owner) {
        String name = inst.name();
        String ns = inst.namespace();
        return TlsSecrets.of(
                InstanceObjects.meta(SparkConnectNames.tls(name), SparkConnectNames.APP, inst, ctx, "tls", owner),
                InternalTls.issue(name, List.of(name, name + "." + ns, name + "." + ns + ".svc",
                        name + "." + ns + ".svc.cluster.local"), TLS_VALIDITY));
    }
}
