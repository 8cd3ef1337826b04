package io.lakehouse.access.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.lakehouse.common.testing.StatementWrites;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.specification.RequestSpecification;
import io.vertx.mutiny.sqlclient.Pool;
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
import org.junit.jupiter.api.AfterEach;
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

    @KubernetesTestServer
    KubernetesServer mockServer;

    @Inject
    Pool pool;

    StatementWrites writes;

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
        writes = new StatementWrites(pool)
                .watch("oidc_clients", "UPDATE OR DELETE", "TG_OP || ' ' || coalesce(NEW.namespace, OLD.namespace)"
                        + " || '/' || coalesce(NEW.name, OLD.name) || ' ' || coalesce(NEW.state, 'gone')")
                .watch("outbox", "INSERT", "NEW.type || ' ' || NEW.subject");
        if (!consumerAssigned) {
            awaitInstancesConsumer();
            consumerAssigned = true;
        }
    }

    @AfterEach
    void dropTriggers() {
        writes.close();
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
        String clientId = ns + ".sql.trino";
        try (EventWriter writer = new EventWriter(); EventReader reader = new EventReader("lakehouse.access")) {
            writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "trino", "sql", "dora"));
            await().atMost(Api.PROPAGATION).until(() -> "Ready".equals(as("alice").get(api).path("state")));

            ClientRepresentation client = keycloakClient(clientId).orElseThrow();
            assertThat(client.isPublicClient()).isFalse();
            assertThat(client.getAttributes()).containsEntry("lakehouse.instance-uid", Api.uid(ns, "trino", "sql"));
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
            String subject = LakehouseEvent.instanceSubject(ns, "trino", "sql");
            assertThat(writes.writtenWith("oidc_clients", "UPDATE " + ns + "/sql Ready"))
                    .as("Ready and its event, one statement")
                    .containsExactlyInAnyOrder("oidc_clients UPDATE " + ns + "/sql Ready",
                            "outbox " + EventType.OIDC_CLIENT_READY.cloudEventType() + " " + subject);

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
            assertThat(writes.writtenWith("oidc_clients", "DELETE " + ns + "/sql gone"))
                    .as("the row and its event, one statement")
                    .containsExactlyInAnyOrder("oidc_clients DELETE " + ns + "/sql gone",
                            "outbox " + EventType.OIDC_CLIENT_REMOVED.cloudEventType() + " " + subject);

            // Canary: neither secret in any event of the instance nor in the service's log.
            reader.events(ns).forEach(e -> assertThat(e.data().toString()).doesNotContain(secret, newSecret));
            String log = Files.readString(Path.of("target/quarkus-test.log"), StandardCharsets.UTF_8);
            assertThat(log).contains(clientId).doesNotContain(secret).doesNotContain(newSecret);
        }
    }

    @Test
    void aMarkedClientIsTakenUpAForeignOneIsNeverTouchedAndKindsGetTheirCallbacks() {
        // pre: a client this instance's uid marks (e.g. made before a database restore): taken up as is.
        String preId = ns + ".pre.mlflow";
        createClient(preId, "pre-existing-secret-" + ns, Api.uid(ns, "mlflow", "pre"));
        // squat: a client with the id the instance would get but no mark (or another instance's): not ours.
        String squatId = ns + ".squat.trino";
        createClient(squatId, "squatter-secret-" + ns, null);
        try (EventWriter writer = new EventWriter()) {
            for (String[] i : List.of(new String[] {"spark-connect", "sc"}, new String[] {"mlflow", "pre"},
                    new String[] {"jupyterhub", "hub"}, new String[] {"nifi", "flow"}, new String[] {"trino", "squat"})) {
                writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, i[0], i[1], "dora"));
            }
            for (String[] i : List.of(new String[] {"mlflow", "pre"}, new String[] {"jupyterhub", "hub"},
                    new String[] {"nifi", "flow"})) {
                await().atMost(Api.PROPAGATION).until(
                        () -> "Ready".equals(as("alice").get(Api.instance(ns, i[0], i[1]) + "/oidc-client").path("state")));
            }
            String squat = Api.instance(ns, "trino", "squat") + "/oidc-client";
            await().atMost(Api.PROPAGATION).until(() -> "Failed".equals(as("alice").get(squat).path("state")));
            as("alice").get(squat).then().body("reason", containsString("exists but was not made for this instance"));
            as("alice").post(squat + "/rotate").then().statusCode(409);
            assertThat(keycloakSecret(keycloakClient(squatId).orElseThrow())).isEqualTo("squatter-secret-" + ns);
            assertThat(keycloakClient(squatId).orElseThrow().getRedirectUris()).isNullOrEmpty();
            assertThat(kube.secrets().inNamespace(ns).withName("squat-oidc").get()).isNull();
        }
        assertThat(admin.realm(KeycloakTestServer.REALM).clients().findByClientId(preId)).hasSize(1);
        assertThat(decoded(kube.secrets().inNamespace(ns).withName("pre-oidc").get()))
                .containsEntry("clientSecret", "pre-existing-secret-" + ns);
        assertThat(keycloakClient(preId).orElseThrow().getRedirectUris())
                .containsExactly("https://pre-" + ns + ".lakehouse.localtest.me/oauth2/callback");
        assertThat(keycloakClient(ns + ".hub.jupyterhub").orElseThrow().getRedirectUris())
                .containsExactly("https://hub-" + ns + ".lakehouse.localtest.me/hub/oauth_callback");
        // NiFi sends its URIs with the port the ingress forwards (:443); Keycloak matches them exactly.
        String flow = "https://flow-" + ns + ".lakehouse.localtest.me";
        ClientRepresentation nifi = keycloakClient(ns + ".flow.nifi").orElseThrow();
        assertThat(nifi.getRedirectUris()).containsExactlyInAnyOrder(flow + "/nifi-api/access/oidc/callback/consumer",
                flow + ":443/nifi-api/access/oidc/callback/consumer");
        assertThat(nifi.getAttributes()).containsEntry("post.logout.redirect.uris", flow + "/*##" + flow + ":443/*");
        assertThat(keycloakClient(preId).orElseThrow().getAttributes())
                .containsEntry("post.logout.redirect.uris", "https://pre-" + ns + ".lakehouse.localtest.me/*");
        // Spark Connect: no client, no Secret, and no OIDC client to show (kind takes none).
        assertThat(keycloakClient(ns + ".sc.spark-connect")).isEmpty();
        assertThat(kube.secrets().inNamespace(ns).withName("sc-oidc").get()).isNull();
        as("alice").get(Api.instance(ns, "spark-connect", "sc") + "/oidc-client").then().statusCode(422)
                .contentType("application/problem+json");
        as("alice").get(Api.instance(ns, "trino", "missing") + "/oidc-client").then().statusCode(404);
        as("bob").get(Api.instance(ns, "mlflow", "pre") + "/oidc-client").then().statusCode(403);
        try (EventWriter writer = new EventWriter()) {
            for (String[] i : List.of(new String[] {"mlflow", "pre"}, new String[] {"jupyterhub", "hub"},
                    new String[] {"nifi", "flow"}, new String[] {"spark-connect", "sc"}, new String[] {"trino", "squat"})) {
                writer.send(Api.instanceEvent(EventType.INSTANCE_DELETED, ns, i[0], i[1], "dora"));
            }
        }
        await().atMost(Api.PROPAGATION).until(() -> keycloakClient(preId).isEmpty()
                && keycloakClient(ns + ".hub.jupyterhub").isEmpty() && keycloakClient(ns + ".flow.nifi").isEmpty()
                && as("alice").get(Api.instance(ns, "trino", "squat") + "/oidc-client").statusCode() == 404);
        // The foreign client outlives the instance that wanted its id.
        assertThat(keycloakSecret(keycloakClient(squatId).orElseThrow())).isEqualTo("squatter-secret-" + ns);
        admin.realm(KeycloakTestServer.REALM).clients().get(keycloakClient(squatId).orElseThrow().getId()).remove();
    }

    @Test
    void instancesWhoseDashedNamesWouldCollideGetTheirOwnClients() {
        // <ns>-<name> was one string for (ns "<b>-p", name "q") and (ns "<b>", name "p-q").
        String other = ns + "-p";
        try (EventWriter writer = new EventWriter()) {
            writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, other, "trino", "q", "dora"));
            writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "trino", "p-q", "erin"));
            String a = Api.instance(other, "trino", "q") + "/oidc-client";
            String b = Api.instance(ns, "trino", "p-q") + "/oidc-client";
            await().atMost(Api.PROPAGATION).until(() -> "Ready".equals(as("alice").get(a).path("state"))
                    && "Ready".equals(as("alice").get(b).path("state")));
            ClientRepresentation ca = keycloakClient(other + ".q.trino").orElseThrow();
            ClientRepresentation cb = keycloakClient(ns + ".p-q.trino").orElseThrow();
            assertThat(ca.getId()).isNotEqualTo(cb.getId());
            String sa = decoded(kube.secrets().inNamespace(other).withName("q-oidc").get()).get("clientSecret");
            String sb = decoded(kube.secrets().inNamespace(ns).withName("p-q-oidc").get()).get("clientSecret");
            assertThat(sa).isEqualTo(keycloakSecret(ca)).isNotEqualTo(sb);
            assertThat(sb).isEqualTo(keycloakSecret(cb));

            // Deleting one leaves the other's client alone.
            writer.send(Api.instanceEvent(EventType.INSTANCE_DELETED, other, "trino", "q", "dora"));
            await().atMost(Api.PROPAGATION).until(() -> as("alice").get(a).statusCode() == 404);
            assertThat(keycloakClient(other + ".q.trino")).isEmpty();
            assertThat(keycloakSecret(keycloakClient(ns + ".p-q.trino").orElseThrow())).isEqualTo(sb);
            writer.send(Api.instanceEvent(EventType.INSTANCE_DELETED, ns, "trino", "p-q", "erin"));
            await().atMost(Api.PROPAGATION).until(() -> as("alice").get(b).statusCode() == 404);
        }
    }

    @Test
    void aRotatedSecretReachesTheSecretEvenWhenItsFirstWriteFails() {
        String api = Api.instance(ns, "nifi", "flow") + "/oidc-client";
        try (EventWriter writer = new EventWriter(); EventReader reader = new EventReader("lakehouse.access")) {
            writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "nifi", "flow", "dora"));
            await().atMost(Api.PROPAGATION).until(() -> "Ready".equals(as("alice").get(api).path("state")));
            await().atMost(Api.PROPAGATION).until(() -> ofType(reader, EventType.OIDC_CLIENT_READY).size() == 1);
            String before = decoded(kube.secrets().inNamespace(ns).withName("flow-oidc").get()).get("clientSecret");

            // The API server refuses the next writes of the Secret (say RBAC being fixed): not Ready meanwhile.
            mockServer.expect().put().withPath("/api/v1/namespaces/" + ns + "/secrets/flow-oidc")
                    .andReturn(403, "{}").times(3);
            as("alice").post(api + "/rotate").then().statusCode(200).body("state", equalTo("Pending"))
                    .body("reason", containsString("writing Secret flow-oidc"));
            String rotated = keycloakSecret(keycloakClient(ns + ".flow.nifi").orElseThrow());
            assertThat(rotated).isNotEqualTo(before);

            // Retried until the Secret holds what Keycloak has; then Ready and announced again (pods roll).
            await().atMost(Api.PROPAGATION).until(() -> rotated.equals(
                    decoded(kube.secrets().inNamespace(ns).withName("flow-oidc").get()).get("clientSecret")));
            await().atMost(Api.PROPAGATION).until(() -> "Ready".equals(as("alice").get(api).path("state")));
            await().atMost(Api.PROPAGATION).until(() -> ofType(reader, EventType.OIDC_CLIENT_READY).size() == 2);
            writer.send(Api.instanceEvent(EventType.INSTANCE_DELETED, ns, "nifi", "flow", "dora"));
            await().atMost(Api.PROPAGATION).until(() -> as("alice").get(api).statusCode() == 404);
        }
    }

    @Test
    void aTenantsSecretOfTheSameNameIsNeitherOverwrittenNorDeleted() {
        String api = Api.instance(ns, "nifi", "own") + "/oidc-client";
        kube.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("own-oidc")
                .withNamespace(ns).endMetadata().withData(Map.of("note", "bWluZQ==")).build()).create();
        try (EventWriter writer = new EventWriter()) {
            writer.send(Api.instanceEvent(EventType.INSTANCE_REQUESTED, ns, "nifi", "own", "dora"));
            await().atMost(Api.PROPAGATION).until(() -> "Failed".equals(as("alice").get(api).path("state")));
            as("alice").get(api).then().body("reason", containsString("Secret own-oidc exists and was not written"));
            assertThat(kube.secrets().inNamespace(ns).withName("own-oidc").get().getData())
                    .containsExactly(Map.entry("note", "bWluZQ=="));

            writer.send(Api.instanceEvent(EventType.INSTANCE_DELETED, ns, "nifi", "own", "dora"));
            await().atMost(Api.PROPAGATION).until(() -> as("alice").get(api).statusCode() == 404);
            assertThat(keycloakClient(ns + ".own.nifi")).isEmpty();
            assertThat(kube.secrets().inNamespace(ns).withName("own-oidc").get().getData())
                    .containsExactly(Map.entry("note", "bWluZQ=="));
        }
    }

    private static void createClient(String clientId, String secret, String mark) {
        ClientRepresentation c = new ClientRepresentation();
        c.setClientId(clientId);
        c.setPublicClient(false);
        c.setSecret(secret);
        if (mark != null) {
            c.setAttributes(Map.of("lakehouse.instance-uid", mark));
        }
        try (Response r = admin.realm(KeycloakTestServer.REALM).clients().create(c)) {
            assertThat(r.getStatus()).isEqualTo(201);
        }
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
