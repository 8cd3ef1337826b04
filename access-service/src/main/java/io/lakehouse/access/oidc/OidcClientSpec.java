package io.lakehouse.access.oidc;

import io.lakehouse.access.domain.InstanceKey;
import java.util.List;
import java.util.Map;

/**
 * What an instance's OIDC client looks like: id {@code <namespace>.<name>.<kind>} (a namespace and an
 * instance name are DNS labels, never holding a '.', so no two instances share an id, and no platform client
 * such as {@code lakehouse-cli} has that shape), redirect URI of
 * the component on {@code https://<name>-<ns>.<domain>}, that origin as web origin. MLflow has no
 * OIDC support of its own: it sits behind the platform login (an oauth2-proxy), whose callback is
 * {@code /oauth2/callback} like Trino's.
 */
public record OidcClientSpec(String clientId, String origin, List<String> redirectUris) {

    private static final Map<String, String> CALLBACKS = Map.of(
            "trino", "/oauth2/callback",
            "jupyterhub", "/hub/oauth_callback",
            "nifi", "/nifi-api/access/oidc/callback/consumer",
            "mlflow", "/oauth2/callback");

    public static boolean wanted(String kind) {
        return CALLBACKS.containsKey(kind);
    }

    public static String clientId(InstanceKey key) {
        return key.namespace() + "." + key.name() + "." + key.kind();
    }

    public static OidcClientSpec of(InstanceKey key, String domain) {
        String origin = "https://" + key.host(domain);
        return new OidcClientSpec(clientId(key), origin, List.of(origin + CALLBACKS.get(key.kind())));
    }

    /** The Secret the instance's pods read: {@code <name>-oidc}. */
    public static String secretName(InstanceKey key) {
        return key.name() + "-oidc";
    }
}
