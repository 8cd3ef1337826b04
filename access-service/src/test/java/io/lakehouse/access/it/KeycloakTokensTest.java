package io.lakehouse.access.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakehouse.common.testing.Callers;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.keycloak.admin.client.Keycloak;
import org.keycloak.representations.idm.ClientRepresentation;
import org.keycloak.representations.idm.ProtocolMapperRepresentation;

/**
 * Real Keycloak tokens through quarkus-oidc (auth-server-url = the realm): the password grant for
 * seeded users with their groups is accepted; another issuer, an expired token and alg=none are 401; so
 * are tokens the realm issued to any other client (no lakehouse-api audience); groups are full paths.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@QuarkusTestResource(value = KeycloakTestStack.class, restrictToAnnotatedClass = true)
class KeycloakTokensTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void realTokensWithGroupsAreAccepted() {
        String ns = Callers.freshNamespace();
        // alice is in platform-admins (groups claim from the realm's mapper): every role everywhere.
        given().auth().oauth2(KeycloakTestServer.passwordToken("alice")).get(Api.members(ns)).then().statusCode(200);
        given().auth().oauth2(KeycloakTestServer.passwordToken("alice")).contentType("application/json")
                .body("{\"role\":\"viewer\"}").put(Api.members(ns) + "/user:bob").then().statusCode(200)
                .body("role", equalTo("viewer"));
        // bob (data-team) is authenticated but has no role in a namespace of his own choosing.
        given().auth().oauth2(KeycloakTestServer.passwordToken("bob")).get(Api.members(Callers.freshNamespace()))
                .then().statusCode(403);
        given().auth().oauth2(KeycloakTestServer.passwordToken("carol")).get(Api.members(ns)).then().statusCode(403);
    }

    @Test
    void aGroupNamedPlatformAdminsElsewhereInTheRealmGrantsNothing() throws Exception {
        String ns = Callers.freshNamespace();
        // dave is in /other/platform-admins: same short name, another group.
        String dave = KeycloakTestServer.passwordToken("dave");
        JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(dave.split("\\.")[1]));
        assertThat(claims.get("groups").toString()).isEqualTo("[\"/other/platform-admins\"]");
        given().auth().oauth2(dave).get(Api.members(ns)).then().statusCode(403);
        given().auth().oauth2(dave).get("/api/v1/audit").then().statusCode(403);
        given().auth().oauth2(KeycloakTestServer.passwordToken("alice")).get("/api/v1/audit").then().statusCode(200);
    }

    @Test
    void tokensTheRealmIssuedToAnotherClientAre401() {
        String ns = Callers.freshNamespace();
        // Another confidential client of the realm, like an instance's own client whose secret sits in a
        // tenant namespace: its service-account token, and even alice's token issued to it, are refused.
        String clientId = "other-client-" + UUID.randomUUID().toString().substring(0, 8);
        try (Keycloak admin = KeycloakTestServer.admin()) {
            ClientRepresentation c = new ClientRepresentation();
            c.setClientId(clientId);
            c.setPublicClient(false);
            c.setSecret("other-secret");
            c.setServiceAccountsEnabled(true);
            c.setDirectAccessGrantsEnabled(true);
            create(admin, c);
            try {
                given().auth().oauth2(KeycloakTestServer.clientCredentialsToken(clientId, "other-secret"))
                        .get(Api.members(ns)).then().statusCode(401);
                String aliceElsewhere = KeycloakTestServer.token(Map.of("grant_type", "password", "client_id",
                        clientId, "client_secret", "other-secret", "username", "alice", "password", "alice"), "alice");
                given().auth().oauth2(aliceElsewhere).get(Api.members(ns)).then().statusCode(401);
                given().auth().oauth2(KeycloakTestServer.passwordToken("alice")).get(Api.members(ns)).then()
                        .statusCode(200);
            } finally {
                remove(admin, clientId);
            }
        }
    }

    @Test
    void otherIssuerExpiredAndUnsignedTokensAre401() throws Exception {
        String ns = Callers.freshNamespace();
        // The local token issuer's token (valid signature for its own key, other issuer).
        String foreign = TestStack.TOKENS.sign(TestStack.ISSUER, "alice", List.of("platform-admins"), Duration.ofHours(1));
        given().auth().oauth2(foreign).get(Api.members(ns)).then().statusCode(401);
        // A Keycloak-shaped token with the realm's issuer, signed by a key Keycloak does not have.
        String forged = TestStack.TOKENS.sign(KeycloakTestServer.ISSUER, "alice", List.of("platform-admins"),
                Duration.ofHours(1));
        given().auth().oauth2(forged).get(Api.members(ns)).then().statusCode(401);

        // alg=none: a real token's claims with the signature stripped.
        String real = KeycloakTestServer.passwordToken("alice");
        String payload = real.split("\\.")[1];
        String none = b64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + payload + ".";
        given().auth().oauth2(none).get(Api.members(ns)).then().statusCode(401);
        // Same claims, exp moved: the signature no longer matches.
        ObjectNode claims = (ObjectNode) JSON.readTree(Base64.getUrlDecoder().decode(payload));
        claims.put("exp", claims.get("exp").asLong() + 3600);
        String[] parts = real.split("\\.");
        given().auth().oauth2(parts[0] + "." + b64(claims.toString()) + "." + parts[2]).get(Api.members(ns))
                .then().statusCode(401);

        // Expired: a real token from a client whose access tokens live 1 s.
        String clientId = "short-lived-" + UUID.randomUUID().toString().substring(0, 8);
        try (Keycloak admin = KeycloakTestServer.admin()) {
            ClientRepresentation c = new ClientRepresentation();
            c.setClientId(clientId);
            c.setPublicClient(true);
            c.setDirectAccessGrantsEnabled(true);
            c.setAttributes(Map.of("access.token.lifespan", "1"));
            // The platform's audience, so that expiry is the only reason for the 401.
            c.setProtocolMappers(List.of(apiAudience()));
            create(admin, c);
            try {
                String shortLived = KeycloakTestServer.passwordToken(clientId, "alice");
                Thread.sleep(3000);
                given().auth().oauth2(shortLived).get(Api.members(ns)).then().statusCode(401);
            } finally {
                remove(admin, clientId);
            }
        }
        given().get(Api.members(ns)).then().statusCode(401);
    }

    private static void create(Keycloak admin, ClientRepresentation c) {
        try (Response r = admin.realm(KeycloakTestServer.REALM).clients().create(c)) {
            if (r.getStatus() != 201) {
                throw new IllegalStateException("could not create " + c.getClientId() + ": " + r.getStatus());
            }
        }
    }

    private static void remove(Keycloak admin, String clientId) {
        admin.realm(KeycloakTestServer.REALM).clients().findByClientId(clientId)
                .forEach(x -> admin.realm(KeycloakTestServer.REALM).clients().get(x.getId()).remove());
    }

    private static ProtocolMapperRepresentation apiAudience() {
        ProtocolMapperRepresentation m = new ProtocolMapperRepresentation();
        m.setName("lakehouse-api audience");
        m.setProtocol("openid-connect");
        m.setProtocolMapper("oidc-audience-mapper");
        m.setConfig(Map.of("included.custom.audience", "lakehouse-api", "access.token.claim", "true"));
        return m;
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
