package io.lakehouse.access.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.keycloak.admin.client.Keycloak;

/**
 * An instance deleted while Keycloak refuses the service's admin client: the row says why the removal
 * waits, nothing is removed and nothing announced; the removal is retried with backoff, and once
 * Keycloak answers again the client and the {@code <name>-oidc} Secret go and
 * {@code access.oidc-client-removed} is published. The service signs in with an admin client of its
 * own ({@link OwnAdminClientTestStack}) whose roles and account the test takes away and gives back.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@QuarkusTestResource(value = OwnAdminClientTestStack.class, restrictToAnnotatedClass = true)
class OidcClientRemovalTest {

    /** Backoff doubles up to 60 s; the refused phases here last a few seconds, so the next try comes soon. */
    private static final Duration RECOVERY = Duration.ofSeconds(60);

    @Inject
    KubernetesClient kube;

    @Test
    void aDeletionRefusedByKeycloakIsRetriedUntilKeycloakAnswers() throws InterruptedException {
        String ns = Callers.freshNamespace();
        String api = Api.instance(ns, "trino", "sql") + "/oidc-client";
        String clientId = ns + ".sql.trino";
        String alice = KeycloakTestServer.passwordToken("alice");
        try (Keycloak master = KeycloakTestServer.masterAdmin(); Keycloak admin = KeycloakTestServer.admin();
                EventWriter writer = new EventWriter(); EventReader reader = new EventReader("lakehouse.access")) {
            OwnAdminClientTestStack.ensure(master);
            OidcClientsTest.awaitInstancesConsumer();
            try {
                writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "trino", "sql", "dora"));
                await().atMost(Api.PROPAGATION).until(() -> "Ready".equals(given().auth().oauth2(alice).get(api).path("state")));
                assertThat(exists(admin, clientId)).isTrue();
                assertThat(kube.secrets().inNamespace(ns).withName("sql-oidc").get()).isNotNull();

                // Keycloak refuses: the service account loses its roles and is disabled (its token → 401).
                OwnAdminClientTestStack.grantRoles(master, false);
                OwnAdminClientTestStack.enable(master, false);
                writer.send(Api.instanceEvent(EventType.INSTANCE_DELETED, ns, "trino", "sql", "dora"));
                await().atMost(Api.PROPAGATION).until(() -> reason(alice, api).contains("HTTP 401"));
                JsonPath waiting = view(alice, api);
                assertThat(waiting.getBoolean("deleting")).isTrue();
                assertThat(waiting.getString("state")).isEqualTo("Failed");
                assertThat(waiting.getString("reason")).startsWith("deleting the client: Keycloak answered HTTP 401");

                // Enabled again but still without roles: a fresh sign-in, refused with 403 this time.
                OwnAdminClientTestStack.enable(master, true);
                await().atMost(RECOVERY).until(() -> reason(alice, api).contains("HTTP 403"));
                assertThat(exists(admin, clientId)).as("nothing removed while refused").isTrue();
                assertThat(kube.secrets().inNamespace(ns).withName("sql-oidc").get()).isNotNull();
                assertThat(removed(reader, ns)).isEmpty();

                // Keycloak answers: the roles are back. The token taken without them must not be reused.
                OwnAdminClientTestStack.grantRoles(master, true);
            } finally {
                OwnAdminClientTestStack.enable(master, true);
            }
            await().atMost(RECOVERY).until(() -> given().auth().oauth2(alice).get(api).statusCode() == 404);
            assertThat(exists(admin, clientId)).isFalse();
            assertThat(kube.secrets().inNamespace(ns).withName("sql-oidc").get()).isNull();
            await().atMost(Api.PROPAGATION).until(() -> removed(reader, ns).size() == 1);
            assertThat(removed(reader, ns).get(0).data().get("clientId").asText()).isEqualTo(clientId);
        }
    }

    private static JsonPath view(String token, String api) {
        Response r = given().auth().oauth2(token).get(api);
        assertThat(r.statusCode()).isEqualTo(200);
        return r.jsonPath();
    }

    private static String reason(String token, String api) {
        String reason = view(token, api).getString("reason");
        return reason == null ? "" : reason;
    }

    private static boolean exists(Keycloak admin, String clientId) {
        return !admin.realm(KeycloakTestServer.REALM).clients().findByClientId(clientId).isEmpty();
    }

    private static List<LakehouseEvent> removed(EventReader reader, String ns) {
        return reader.events(ns + "/").stream().filter(e -> e.type() == EventType.OIDC_CLIENT_REMOVED).toList();
    }
}
