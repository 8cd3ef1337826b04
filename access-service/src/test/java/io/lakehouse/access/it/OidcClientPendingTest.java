package io.lakehouse.access.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.lakehouse.common.events.EventType;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import org.junit.jupiter.api.Test;

/**
 * No identity provider configured (TestStack): the client waits and says why; rotation is refused;
 * deleting the instance removes the waiting row.
 */
@QuarkusTest
@WithKubernetesTestServer
@QuarkusTestResource(value = TestStack.class, restrictToAnnotatedClass = true)
class OidcClientPendingTest {

    @Test
    void withoutKeycloakTheClientIsPendingWithTheReason() throws InterruptedException {
        Api.awaitInstancesConsumer();
        String ns = Callers.freshNamespace();
        String api = Api.instance(ns, "nifi", "flow") + "/oidc-client";
        try (EventWriter writer = new EventWriter()) {
            Api.requestInstance(writer, ns, "nifi", "flow", "dora");
        }
        await().atMost(Api.PROPAGATION).until(() -> asAdmin().get(api).path("reason") != null);
        asAdmin().get(api).then().statusCode(200).body("state", equalTo("Pending"))
                .body("reason", containsString("no identity provider configured")).body("clientId", equalTo(ns + ".flow.nifi"));
        asAdmin().post(api + "/rotate").then().statusCode(409).contentType("application/problem+json");
        Api.grantRole(ns, "vic", "viewer");
        Callers.as("vic").get(api).then().statusCode(200);
        Callers.as("vic").post(api + "/rotate").then().statusCode(403);

        // Deleted: without an identity provider no client was ever made; the row goes at once.
        try (EventWriter writer = new EventWriter()) {
            writer.send(Api.instanceEvent(EventType.INSTANCE_DELETED, ns, "nifi", "flow", "dora"));
        }
        await().atMost(Api.PROPAGATION).until(() -> asAdmin().get(api).statusCode() == 404);
    }
}
