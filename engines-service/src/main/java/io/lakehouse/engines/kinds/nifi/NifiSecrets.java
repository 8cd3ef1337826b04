package io.lakehouse.engines.kinds.nifi;

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

/** The Secrets generated once for a NiFi instance. */
final class NifiSecrets {

    static final String SENSITIVE_PROPS_KEY = "sensitive-props-key";

    private NifiSecrets() {}

    /**
     * {@code nifi.sensitive.props.key}: encrypts the passwords stored in the flow, so it must never
     * change. 32 URL-safe characters: NiFi wants at least 12, and start.sh writes it with sed.
     */
    static Secret nifi(Instance inst, EngineContext ctx, OwnerReference owner) {
        return Labels.privateSecret(InstanceObjects.secret(NifiNames.nifiSecret(inst.name()), NifiNames.APP, inst, ctx,
                "credentials", owner, Map.of(SENSITIVE_PROPS_KEY, RandomValues.token(24))));
    }

    /** NiFi 2 listens on HTTPS only: its keystore and truststore, and the CA the gateway verifies it with. */
    static Secret tls(Instance inst, EngineContext ctx, OwnerReference owner) {
        String name = inst.name();
        return Labels.privateSecret(TlsSecrets.of(
                InstanceObjects.meta(NifiNames.tls(name), NifiNames.APP, inst, ctx, "tls", owner),
                InternalTls.issue(name, dnsNames(inst, ctx), InternalTls.NO_RENEWAL_VALIDITY)));
    }

    /**
     * The Service's names, the pod's stable name and the public host: Jetty refuses (400) a request
     * whose Host is not a name of the certificate, and the gateway forwards the public host.
     */
    static List<String> dnsNames(Instance inst, EngineContext ctx) {
        String name = inst.name();
        String ns = inst.namespace();
        String service = NifiNames.serviceHost(name, ns);
        return List.of(name, name + "." + ns, service, service + ".cluster.local",
                NifiNames.pod(name) + "." + service + ".cluster.local", ctx.publicHost(name, ns));
    }
}
