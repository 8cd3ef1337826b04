package io.lakehouse.engines.kinds.nifi;

import static io.lakehouse.common.kube.EnvVars.fromSecret;
import static io.lakehouse.common.kube.EnvVars.value;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.InstanceObjects;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.tls.TlsSecrets;
import java.util.List;

/**
 * The environment the image's scripts turn into {@code conf/} at every start: start.sh (ports, proxy
 * host, heap, sensitive key), secure.sh (stores, initial admin) and update_oidc_properties.sh
 * (sign-in), all run because {@code AUTH=oidc}. Secret values only by reference.
 */
final class NifiEnv {

    /** The claim holding the platform's principal; NiFi's default is {@code email}. */
    static final String IDENTIFYING_CLAIM = "preferred_username";
    /** NiFi always asks for {@code openid email}; {@code profile} carries {@code preferred_username}. */
    static final String ADDITIONAL_SCOPES = "profile";

    private NifiEnv() {}

    static List<EnvVar> of(Instance inst, EngineContext ctx) {
        NifiSpec spec = (NifiSpec) inst.spec();
        String host = ctx.publicHost(inst.name(), inst.namespace());
        String tls = NifiNames.tls(inst.name());
        String oidc = InstanceObjects.oidcSecret(inst.name());
        String heap = ByteSizes.javaHeap(spec.heap());
        return List.of(
                value("NIFI_WEB_HTTPS_PORT", String.valueOf(NifiNames.HTTPS_PORT)),
                // Every interface: the pod IP for the Service and probes, localhost for port-forward.
                value("NIFI_WEB_HTTPS_HOST", "0.0.0.0"),
                // The X-Forwarded-Host values NiFi accepts besides the request's Host (421 otherwise).
                value("NIFI_WEB_PROXY_HOST", host + "," + host + ":443"),
                value("NIFI_JVM_HEAP_INIT", heap),
                value("NIFI_JVM_HEAP_MAX", heap),
                fromSecret("NIFI_SENSITIVE_PROPS_KEY", NifiNames.nifiSecret(inst.name()),
                        NifiSecrets.SENSITIVE_PROPS_KEY),
                value("AUTH", "oidc"),
                value("KEYSTORE_PATH", NifiNames.TLS_DIR + "/" + TlsSecrets.KEYSTORE),
                value("KEYSTORE_TYPE", "PKCS12"),
                fromSecret("KEYSTORE_PASSWORD", tls, TlsSecrets.PASSWORD),
                value("TRUSTSTORE_PATH", NifiNames.TLS_DIR + "/" + TlsSecrets.TRUSTSTORE),
                value("TRUSTSTORE_TYPE", "PKCS12"),
                fromSecret("TRUSTSTORE_PASSWORD", tls, TlsSecrets.PASSWORD),
                // Written into authorizers.xml on the first start only (the sed matches empty values).
                value("INITIAL_ADMIN_IDENTITY", inst.createdBy()),
                // Defined before its use: Kubernetes expands $(OIDC_ISSUER) from earlier entries only.
                fromSecret("OIDC_ISSUER", oidc, InstanceObjects.OIDC_ISSUER),
                value("NIFI_SECURITY_USER_OIDC_DISCOVERY_URL", "$(OIDC_ISSUER)/.well-known/openid-configuration"),
                fromSecret("NIFI_SECURITY_USER_OIDC_CLIENT_ID", oidc, InstanceObjects.OIDC_CLIENT_ID),
                fromSecret("NIFI_SECURITY_USER_OIDC_CLIENT_SECRET", oidc, InstanceObjects.OIDC_CLIENT_SECRET),
                value("NIFI_SECURITY_USER_OIDC_CLAIM_IDENTIFYING_USER", IDENTIFYING_CLAIM),
                value("NIFI_SECURITY_USER_OIDC_ADDITIONAL_SCOPES", ADDITIONAL_SCOPES));
    }
}
