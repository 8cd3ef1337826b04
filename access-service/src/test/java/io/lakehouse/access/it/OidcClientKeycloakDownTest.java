package io.lakehouse.access.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Keycloak unreachable: the client stays Pending and says why, the work is retried with backoff,
 * and once Keycloak answers the client, its Secret and {@code access.oidc-client-ready} follow.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@QuarkusTestResource(value = KeycloakDownTestStack.class, restrictToAnnotatedClass = true)
class OidcClientKeycloakDownTest {

    @Inject
    KubernetesClient kube;

    @AfterAll
    static void closeForwarder() throws Exception {
        KeycloakDownTestStack.FORWARDER.close();
    }

    @Test
    void whileKeycloakIsDownTheClientWaitsWithTheReasonThenIsMadeWhenItIsBack() throws Exception {
        String ns = Callers.freshNamespace();
        String api = Api.instance(ns, "nifi", "flows") + "/oidc-client";
        Api.awaitInstancesConsumer(() -> as());
        try (EventWriter writer = new EventWriter(); EventReader reader = new EventReader("lakehouse.access")) {
            writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "nifi", "flows", "dora"));
            await().atMost(Api.PROPAGATION).until(() -> as().get(api).statusCode() == 200
                    && as().get(api).jsonPath().getString("reason") != null);
            JsonPath waiting = as().get(api).jsonPath();
            assertThat(waiting.getString("state")).isEqualTo("Pending");
            assertThat(waiting.getString("reason")).startsWith("waiting for Keycloak");
            assertThat(kube.secrets().inNamespace(ns).withName("flows-oidc").get()).isNull();
            // Still waiting a moment later: retried, not given up.
            Thread.sleep(1500);
            assertThat(as().get(api).jsonPath().getString("state")).isEqualTo("Pending");

            KeycloakDownTestStack.FORWARDER.open();
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> "Ready".equals(as().get(api).jsonPath().getString("state")));
            assertThat(kube.secrets().inNamespace(ns).withName("flows-oidc").get()).isNotNull();
            await().atMost(Api.PROPAGATION).until(() -> reader.events(ns + "/").stream()
                    .anyMatch(e -> e.type() == EventType.OIDC_CLIENT_READY));
        }
    }

    private static RequestSpecification as() {
        return given().auth().oauth2(KeycloakTestServer.passwordToken("alice")).contentType("application/json");
    }
}
