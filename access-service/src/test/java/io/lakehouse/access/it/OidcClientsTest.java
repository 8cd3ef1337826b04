package io.lakehouse.access.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.keycloak.admin.client.Keycloak;
import org.keycloak.representations.idm.ClientRepresentation;

/**
 * OIDC clients per instance against the real Keycloak (checked through its admin API), the fabric8
 * mock API server (the {@code <name>-oidc} Secret), PostgreSQL and Kafka; API calls with real
 * Keycloak tokens (alice is in platform-admins).
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@QuarkusTestResource(value = KeycloakTestStack.class, restrictToAnnotatedClass = true)
class OidcClientsTest {

    static Keycloak admin;
    String ns;

    @Inject
    KubernetesClient kube;

    @BeforeAll
    static void adminClient() {
        admin = KeycloakTestServer.admin();
    }

    @AfterAll
    static void closeAdmin() {
        admin.close();
    }

    static boolean consumerAssigned;

    @BeforeEach
    void namespace() throws InterruptedException {
        ns = Callers.freshNamespace();
        if (!consumerAssigned) {
            awaitInstancesConsumer();
            consumerAssigned = true;
        }
    }

    /** The instances channel starts at the latest offset: send until one event is seen (partitions assigned). */
    static void awaitInstancesConsumer() throws InterruptedException {
        Api.awaitInstancesConsumer(() -> as("alice"));
    }

    static RequestSpecification as(String user) {
        return given().auth().oauth2(KeycloakTestServer.passwordToken(user)).contentType("application/json");
    }

    @Test
    void requestedRotatedDeleted() throws IOException {
        String api = Api.instance(ns, "trino", "sql") + "/oidc-client";
        String clientId = ns + "-sql-trino";
        try (EventWriter writer = new EventWriter(); EventReader reader = new EventReader("lakehouse.access")) {
            writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "trino", "sql", "dora"));
            await().atMost(Api.PROPAGATION).until(() -> "Ready".equals(as("alice").get(api).path("state")));

            ClientRepresentation client = keycloakClient(clientId).orElseThrow();
            assertThat(client.isPublicClient()).isFalse();
            assertThat(client.getRedirectUris()).containsExactly("https://sql-" + ns + ".lakehouse.localtest.me/oauth2/callback");
            assertThat(client.getWebOrigins()).containsExactly("https://sql-" + ns + ".lakehouse.localtest.me");
            String secret = keycloakSecret(client);
            assertThat(secret).isNotBlank();

            Secret oidc = kube.secrets().inNamespace(ns).withName("sql-oidc").get();
            assertThat(decoded(oidc)).containsEntry("clientId", clientId).containsEntry("clientSecret", secret)
                    .containsEntry("issuer", KeycloakTestServer.ISSUER);
            assertThat(oidc.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "access-service")
                    .containsEntry("app.kubernetes.io/instance", "sql").containsEntry("app.kubernetes.io/part-of", "lakehouse");

            String view = as("alice").get(api).then().statusCode(200).body("clientId", equalTo(clientId))
                    .body("secretName", equalTo("sql-oidc")).extract().asString();
            assertThat(view).doesNotContain(secret);

            await().atMost(Api.PROPAGATION).until(() -> ofType(reader, EventType.OIDC_CLIENT_READY).size() == 1);
            LakehouseEvent ready = ofType(reader, EventType.OIDC_CLIENT_READY).get(0);
            assertThat(ready.data().get("clientId").asText()).isEqualTo(clientId);
            assertThat(ready.data().get("secretName").asText()).isEqualTo("sql-oidc");
            assertThat(ready.data().toString()).doesNotContain(secret);

            // Rotation: only admins; a new secret in Keycloak and in the Secret, announced again.
            as("bob").post(api + "/rotate").then().statusCode(403);
            String rotated = as("alice").post(api + "/rotate").then().statusCode(200).body("state", equalTo("Ready"))
                    .extract().asString();
            String newSecret = keycloakSecret(keycloakClient(clientId).orElseThrow());
            assertThat(newSecret).isNotEqualTo(secret);
            assertThat(rotated).doesNotContain(newSecret).doesNotContain(secret);
            assertThat(decoded(kube.secrets().inNamespace(ns).withName("sql-oidc").get()))
                    .containsEntry("clientSecret", newSecret);
            await().atMost(Api.PROPAGATION).until(() -> ofType(reader, EventType.OIDC_CLIENT_READY).size() == 2);

            // Deletion: client and Secret go, then the state; announced.
            writer.send(Api.instanceEvent(EventType.INSTANCE_DELETED, ns, "trino", "sql", "dora"));
            await().atMost(Api.PROPAGATION).until(() -> as("alice").get(api).statusCode() == 404);
            assertThat(keycloakClient(clientId)).isEmpty();
            assertThat(kube.secrets().inNamespace(ns).withName("sql-oidc").get()).isNull();
            await().atMost(Api.PROPAGATION).until(() -> ofType(reader, EventType.OIDC_CLIENT_REMOVED).size() == 1);
            assertThat(ofType(reader, EventType.OIDC_CLIENT_REMOVED).get(0).data().get("clientId").asText())
                    .isEqualTo(clientId);

            // Canary: neither secret in any event of the instance nor in the service's log.
            reader.events(ns).forEach(e -> assertThat(e.data().toString()).doesNotContain(secret, newSecret));
            String log = Files.readString(Path.of("target/quarkus-test.log"), StandardCharsets.UTF_8);
            assertThat(log).contains(clientId).doesNotContain(secret).doesNotContain(newSecret);
        }
    }

    @Test
    void anExistingClientIsAdoptedAndKindsGetTheirCallbacks() {
        String preId = ns + "-pre-mlflow";
        ClientRepresentation pre = new ClientRepresentation();
        pre.setClientId(preId);
        pre.setPublicClient(false);
        pre.setSecret("pre-existing-secret-" + ns);
        try (Response r = admin.realm(KeycloakTestServer.REALM).clients().create(pre)) {
            assertThat(r.getStatus()).isEqualTo(201);
        }
        try (EventWriter writer = new EventWriter()) {
            writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "spark-connect", "sc", "dora"));
            writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "mlflow", "pre", "dora"));
            writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "jupyterhub", "hub", "dora"));
            writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "nifi", "flow", "dora"));
            for (String[] i : List.of(new String[] {"mlflow", "pre"}, new String[] {"jupyterhub", "hub"},
                    new String[] {"nifi", "flow"})) {
                await().atMost(Api.PROPAGATION).until(
                        () -> "Ready".equals(as("alice").get(Api.instance(ns, i[0], i[1]) + "/oidc-client").path("state")));
            }
        }
        assertThat(admin.realm(KeycloakTestServer.REALM).clients().findByClientId(preId)).hasSize(1);
        assertThat(decoded(kube.secrets().inNamespace(ns).withName("pre-oidc").get()))
                .containsEntry("clientSecret", "pre-existing-secret-" + ns);
        assertThat(keycloakClient(preId).orElseThrow().getRedirectUris())
                .containsExactly("https://pre-" + ns + ".lakehouse.localtest.me/oauth2/callback");
        assertThat(keycloakClient(ns + "-hub-jupyterhub").orElseThrow().getRedirectUris())
                .containsExactly("https://hub-" + ns + ".lakehouse.localtest.me/hub/oauth_callback");
        assertThat(keycloakClient(ns + "-flow-nifi").orElseThrow().getRedirectUris())
                .containsExactly("https://flow-" + ns + ".lakehouse.localtest.me/nifi-api/access/oidc/callback/consumer");
        // Spark Connect: no client, no Secret, and no OIDC client to show (kind takes none).
        assertThat(keycloakClient(ns + "-sc-spark-connect")).isEmpty();
        assertThat(kube.secrets().inNamespace(ns).withName("sc-oidc").get()).isNull();
        as("alice").get(Api.instance(ns, "spark-connect", "sc") + "/oidc-client").then().statusCode(422)
                .contentType("application/problem+json");
        as("alice").get(Api.instance(ns, "trino", "missing") + "/oidc-client").then().statusCode(404);
        as("bob").get(Api.instance(ns, "mlflow", "pre") + "/oidc-client").then().statusCode(403);
        try (EventWriter writer = new EventWriter()) {
            for (String[] i : List.of(new String[] {"mlflow", "pre"}, new String[] {"jupyterhub", "hub"},
                    new String[] {"nifi", "flow"}, new String[] {"spark-connect", "sc"})) {
                writer.send(Api.instanceEvent(EventType.INSTANCE_DELETED, ns, i[0], i[1], "dora"));
            }
        }
        await().atMost(Api.PROPAGATION).until(() -> keycloakClient(preId).isEmpty()
                && keycloakClient(ns + "-hub-jupyterhub").isEmpty() && keycloakClient(ns + "-flow-nifi").isEmpty());
    }

    private List<LakehouseEvent> ofType(EventReader reader, EventType type) {
        return reader.events(ns + "/").stream().filter(e -> e.type() == type).toList();
    }

    private static Optional<ClientRepresentation> keycloakClient(String clientId) {
        return admin.realm(KeycloakTestServer.REALM).clients().findByClientId(clientId).stream().findFirst();
    }

    private static String keycloakSecret(ClientRepresentation client) {
        return admin.realm(KeycloakTestServer.REALM).clients().get(client.getId()).getSecret().getValue();
    }

    private static Map<String, String> decoded(Secret secret) {
        assertThat(secret).isNotNull();
        Map<String, String> out = new java.util.TreeMap<>();
        secret.getData().forEach((k, v) -> out.put(k, new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
        return out;
    }
}
