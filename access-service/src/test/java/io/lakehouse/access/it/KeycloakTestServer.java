package io.lakehouse.access.it;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.keycloak.OAuth2Constants;
import org.keycloak.admin.client.Keycloak;
import org.keycloak.admin.client.KeycloakBuilder;

/**
 * The real Keycloak that {@code deploy/local/lakehouse test} starts (realm {@code lakehouse} of
 * deploy/local/keycloak/lakehouse-realm.json). {@code -Dlakehouse.test.keycloak=URL} points elsewhere.
 */
public final class KeycloakTestServer {

    public static final String URL = System.getProperty("lakehouse.test.keycloak", "http://127.0.0.1:58180");
    public static final String REALM = "lakehouse";
    public static final String ISSUER = URL + "/realms/" + REALM;
    public static final String ADMIN_CLIENT = "lakehouse-access";
    public static final String ADMIN_SECRET = "lakehouse-access-local-only";
    /** Keycloak's bootstrap admin of the master realm (deploy/local/lib/keycloak.sh: admin/admin). */
    static final String MASTER_USER = System.getProperty("lakehouse.test.keycloak.admin", "admin");
    static final String MASTER_PASSWORD = System.getProperty("lakehouse.test.keycloak.admin-password", "admin");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private static final Pattern ACCESS_TOKEN = Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"");

    private KeycloakTestServer() {}

    /** Keycloak may still be starting (the test command starts it in the background): wait for the realm. */
    public static void awaitReady() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<Void> r = HTTP.send(HttpRequest.newBuilder(
                        URI.create(ISSUER + "/.well-known/openid-configuration")).timeout(Duration.ofSeconds(3)).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep();
        }
        throw new IllegalStateException("Keycloak realm " + ISSUER + " not ready within " + START_TIMEOUT
                + ": run the tests with deploy/local/lakehouse test (it starts Keycloak; log in .local/logs/keycloak.log)");
    }

    /** A real access token for a seeded user (password = user name) from the public client lakehouse-cli. */
    public static String passwordToken(String user) {
        return passwordToken("lakehouse-cli", user);
    }

    public static String passwordToken(String clientId, String user) {
        return token(Map.of("grant_type", "password", "client_id", clientId, "username", user, "password", user),
                user);
    }

    /** A confidential client's own token (client_credentials), as anyone holding its secret can get one. */
    public static String clientCredentialsToken(String clientId, String secret) {
        return token(Map.of("grant_type", "client_credentials", "client_id", clientId, "client_secret", secret),
                clientId);
    }

    static String token(Map<String, String> grant, String who) {
        String form = grant.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(ISSUER + "/protocol/openid-connect/token"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = ACCESS_TOKEN.matcher(r.body());
            if (r.statusCode() != 200 || !m.find()) {
                throw new IllegalStateException(grant.get("grant_type") + " grant for " + who + " refused: "
                        + r.statusCode());
            }
            return m.group(1);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The Keycloak admin client library, as the test's own independent look at the realm. */
    public static Keycloak admin() {
        return KeycloakBuilder.builder().serverUrl(URL).realm(REALM).clientId(ADMIN_CLIENT).clientSecret(ADMIN_SECRET)
                .grantType(OAuth2Constants.CLIENT_CREDENTIALS).build();
    }

    /** The master realm's admin: what the realm's own service accounts may not do (role mappings, users). */
    public static Keycloak masterAdmin() {
        return KeycloakBuilder.builder().serverUrl(URL).realm("master").clientId("admin-cli").username(MASTER_USER)
                .password(MASTER_PASSWORD).grantType(OAuth2Constants.PASSWORD).build();
    }

    private static void sleep() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
