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
 * {@code /oauth2/callback} like Trino's. NiFi builds its callback and logout URIs from the forwarded
 * headers including the port, so behind ingress-nginx they read {@code https://<host>:443/...}; Keycloak
 * matches redirect URIs exactly, so a NiFi client registers both spellings.
 *
 * @param postLogoutUris Keycloak's {@code post.logout.redirect.uris} attribute ({@code ##}-separated)
 */
public record OidcClientSpec(String clientId, String origin, List<String> redirectUris, String postLogoutUris) {

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
        List<String> spellings = "nifi".equals(key.kind()) ? List.of(origin, origin + ":443") : List.of(origin);
        return new OidcClientSpec(clientId(key), origin,
                spellings.stream().map(o -> o + CALLBACKS.get(key.kind())).toList(),
                String.join("##", spellings.stream().map(o -> o + "/*").toList()));
    }

    /** The Secret the instance's pods read: {@code <name>-oidc}. */
    public static String secretName(InstanceKey key) {
        return key.name() + "-oidc";
    }
}
