package io.lakehouse.notebooks.kinds.jupyterhub;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.lakehouse.common.crypto.RandomValues;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.common.kube.SecretData;
import java.util.Map;

/**
 * {@code <name>-hub-secret}, generated once and never rewritten: the cookie secret (a new one would
 * sign every user out) and the token the hub and the proxy share.
 */
final class HubSecrets {

    static final String COOKIE_SECRET = "cookie-secret";
    static final String PROXY_TOKEN = "proxy-token";

    private HubSecrets() {}

    static Secret generate(HubInstance inst, HubContext ctx, OwnerReference owner) {
        return of(inst, ctx, owner, RandomValues.hex(32), RandomValues.hex(32));
    }

    /** JupyterHub reads the cookie secret as hex (32 bytes). */
    static Secret of(HubInstance inst, HubContext ctx, OwnerReference owner, String cookieSecret, String proxyToken) {
        return Labels.privateSecret(new SecretBuilder()
                .withMetadata(HubMeta.meta(HubNames.secret(inst.name()), inst, ctx, HubNames.HUB, owner))
                .withType("Opaque")
                .withData(SecretData.encode(Map.of(COOKIE_SECRET, cookieSecret, PROXY_TOKEN, proxyToken)))
                .build());
    }
}
