package io.lakehouse.engines.kinds.trino;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.lakehouse.common.crypto.RandomValues;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.tls.InternalTls;
import io.lakehouse.engines.tls.TlsSecrets;
import java.util.List;
import java.util.Map;

/** The Secrets generated once for a Trino instance. */
final class TrinoSecrets {

    static final String SHARED_SECRET = "shared-secret";

    private TrinoSecrets() {}

    /** {@code internal-communication.shared-secret}: the same value on every node. */
    static Secret internal(Instance inst, EngineContext ctx, OwnerReference owner) {
        return Labels.privateSecret(InstanceObjects.secret(TrinoNames.internal(inst.name()), TrinoNames.APP, inst, ctx,
                "credentials", owner, Map.of(SHARED_SECRET, RandomValues.token(64))));
    }

    /**
     * The coordinator's HTTPS certificate: OAuth2 sign-in requires TLS on the coordinator; the
     * gateway verifies it with {@code ca.crt} (Ingress backend TLS).
     */
    static Secret tls(Instance inst, EngineContext ctx, OwnerReference owner) {
        String name = inst.name();
        String ns = inst.namespace();
        List<String> dnsNames = List.of(name, name + "." + ns, name + "." + ns + ".svc",
                name + "." + ns + ".svc.cluster.local", ctx.publicHost(name, ns));
        return Labels.privateSecret(TlsSecrets.of(
                InstanceObjects.meta(TrinoNames.tls(name), TrinoNames.APP, inst, ctx, "tls", owner),
                InternalTls.issue(name, dnsNames, InternalTls.NO_RENEWAL_VALIDITY)));
    }
}
