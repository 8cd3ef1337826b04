package io.lakehouse.engines.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.engines.it.Api.instances;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class TrinoLifecycleTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    @BeforeEach
    void simulate() {
        ClusterSimulation.of(kube);
    }

    @Test
    void aTrinoWaitsForItsOidcClientThenRunsOnTheCatalogAndGoesAwayLeavingNothing() {
        String ns = Callers.freshNamespace();
        String name = "sql";
        String subject = ns + "/trino/" + name;
        catalogWithBucket(ns, "lakehouse-cat");
        try (EventReader events = new EventReader("lakehouse.instances")) {
            Response created = asAdmin().body("{\"name\":\"sql\",\"spec\":{\"catalog\":\"lakehouse-cat\"}}")
                    .post(instances(ns, "trino"));
            created.then().statusCode(201)
                    .body("kind", equalTo("trino"))
                    .body("spec.warehouse", equalTo("lakehouse"))
                    .body("spec.workers", equalTo(2))
                    .body("spec.coordinatorMemory", equalTo("4Gi"))
                    .body("spec.storage.bucket", equalTo("warehouse"))
                    .body("spec.storage.credentialsSecret", equalTo("warehouse-bucket"))
                    .body("status.endpoints.public", equalTo("https://sql-" + ns + ".lakehouse.localtest.me/ui/"))
                    .body("status.endpoints.internal", equalTo("https://sql." + ns + ".svc:8443"));

            // Nothing runs until access-service has made the OIDC client: the status says why.
            await().atMost(CONVERGE).until(() -> "WaitingForOidcClient".equals(reason(ns, name, "OidcClientReady")));
            assertThat(phase(ns, name)).isEqualTo("Pending");
            assertThat(kube.apps().deployments().inNamespace(ns).list().getItems()).isEmpty();
            assertThat(kube.secrets().inNamespace(ns).withName(name + "-internal").get()).isNotNull();

            Api.oidcClientReady(kube, ns, "trino", name);
            await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns, name)));
            Response ready = asAdmin().get(instances(ns, "trino") + "/" + name);
            assertThat(ready.jsonPath().getList("status.conditions.type", String.class)).containsExactly(
                    "OidcClientReady", "CatalogReady", "CoordinatorReady", "WorkersReady", "Ready");
            assertThat(ready.jsonPath().getList("status.conditions.status", String.class)).containsOnly("True");

            ConfigMap catalog = kube.configMaps().inNamespace(ns).withName(name + "-catalog").get();
            String properties = catalog.getData().get("lakehouse.properties");
            assertThat(properties).contains("iceberg.rest-catalog.warehouse=lakehouse",
                    "iceberg.rest-catalog.oauth2.credential=${ENV:CATALOG_CREDENTIAL}",
                    "s3.endpoint=http://minio.storage.svc:9000", "s3.aws-secret-key=${ENV:AWS_SECRET_ACCESS_KEY}");
            Deployment coordinator = kube.apps().deployments().inNamespace(ns).withName(name).get();
            List<EnvVar> env = coordinator.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
            assertThat(env).filteredOn(e -> e.getName().equals("CATALOG_CLIENT_SECRET")).singleElement()
                    .satisfies(e -> assertThat(e.getValueFrom().getSecretKeyRef().getName())
                            .isEqualTo("lakehouse-cat-root-principal"));
            assertThat(env).filteredOn(e -> e.getName().equals("OIDC_CLIENT_SECRET")).singleElement()
                    .satisfies(e -> assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo("sql-oidc"));
            assertThat(kube.network().v1().ingresses().inNamespace(ns).withName(name).get().getSpec().getRules().get(0)
                    .getHost()).isEqualTo("sql-" + ns + ".lakehouse.localtest.me");
            assertThat(kube.network().v1().ingresses().inNamespace(ns).withName(name).get().getMetadata()
                    .getAnnotations()).containsKey("nginx.ingress.kubernetes.io/auth-url");
            assertThat(kube.network().v1().networkPolicies().inNamespace(ns).withName(name).get().getSpec()
                    .getPodSelector().getMatchLabels()).containsEntry("app.kubernetes.io/instance", name);
            ConfigMap root = kube.configMaps().inNamespace(ns).withName(name + "-instance").get();
            for (HasMetadata o : owned(ns, name)) {
                if (!o.getMetadata().getName().equals(root.getMetadata().getName())) {
                    assertThat(o.getMetadata().getOwnerReferences()).as(o.getKind() + " " + o.getMetadata().getName())
                            .singleElement().satisfies(ref -> assertThat(ref.getUid()).isEqualTo(root.getMetadata().getUid()));
                }
            }
            await().atMost(CONVERGE).until(() -> types(events.events(subject))
                    .containsAll(List.of(EventType.INSTANCE_REQUESTED, EventType.INSTANCE_READY)));
            LakehouseEvent requested = events.events(subject).get(0);
            assertThat(requested.type()).isEqualTo(EventType.INSTANCE_REQUESTED);
            assertThat(requested.data().path("spec").path("catalog").asText()).isEqualTo("lakehouse-cat");
            assertThat(requested.data().path("createdBy").asText()).isEqualTo("root-admin");

            // Scaling the workers leaves the coordinator's pods alone (same template: no restart).
            var coordinatorPods = kube.apps().deployments().inNamespace(ns).withName(name).get().getSpec().getTemplate();
            asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"workers\":3}}")
                    .patch(instances(ns, "trino") + "/" + name)
                    .then().statusCode(200).body("generation", equalTo(2)).body("spec.workers", equalTo(3));
            await().atMost(CONVERGE).until(() -> kube.apps().deployments().inNamespace(ns).withName(name + "-worker")
                    .get().getSpec().getReplicas() == 3);
            assertThat(kube.apps().deployments().inNamespace(ns).withName(name).get().getSpec().getTemplate())
                    .isEqualTo(coordinatorPods);

            asAdmin().delete(instances(ns, "trino") + "/" + name).then().statusCode(202)
                    .body("status.phase", equalTo("Deleting"));
            await().atMost(CONVERGE).until(() -> asAdmin().get(instances(ns, "trino") + "/" + name).statusCode() == 404);
            assertThat(owned(ns, name)).isEmpty();
            await().atMost(CONVERGE).until(() -> types(events.events(subject)).contains(EventType.INSTANCE_DELETED));
        }
    }

    /**
     * Trino's access rules follow the instance's grants while it runs: a grant added or removed
     * changes the rules file (users and groups), never the pods (no restart); a duplicate is ignored.
     */
    @Test
    void grantsBecomeTrinosAccessRulesWithoutARestart() throws Exception {
        String ns = Callers.freshNamespace();
        catalogWithBucket(ns, "cat");
        asAdmin().body("{\"name\":\"sql\",\"spec\":{\"catalog\":\"cat\"}}").post(instances(ns, "trino"))
                .then().statusCode(201);
        Api.oidcClientReady(kube, ns, "trino", "sql");
        await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns, "sql")));
        assertThat(rules(ns).path("catalogs")).hasSize(1);
        String template = podTemplate(ns);

        Api.grant(EventType.GRANT_ADDED, ns, "trino", "sql", "user", "alice");
        Api.grant(EventType.GRANT_ADDED, ns, "trino", "sql", "group", "data-team");
        Api.grant(EventType.GRANT_ADDED, ns, "trino", "other", "user", "mallory");
        await().atMost(CONVERGE).until(() -> rules(ns).path("queries").size() == 2);
        JsonNode rules = rules(ns);
        assertThat(rules.path("catalogs").findValuesAsText("user")).containsExactly("alice", "alice");
        assertThat(rules.path("catalogs").findValuesAsText("group")).containsExactly("data-team", "data-team");
        assertThat(rules.path("queries").findValuesAsText("user")).containsExactly("alice");
        assertThat(rules.toString()).doesNotContain("mallory");

        Api.grant(EventType.GRANT_REMOVED, ns, "trino", "sql", "user", "alice");
        await().atMost(CONVERGE).until(() -> rules(ns).path("queries").size() == 1);
        assertThat(rules(ns).path("queries").get(0).path("group").asText()).isEqualTo("data-team");
        assertThat(rules(ns).toString()).doesNotContain("alice");
        assertThat(podTemplate(ns)).as("the coordinator keeps running").isEqualTo(template);
    }

    /**
     * A group's grant reaches Trino through its group file: the users access-service saw in a granted
     * group (access.user-groups-seen) are its members there, a user leaving the group or the group
     * losing its grant leaves the file, and an older sighting (a replay) changes nothing. The pods keep
     * running throughout.
     */
    @Test
    void groupGrantsReachTrinoThroughTheGroupFileOfTheUsersSeenInThem() throws Exception {
        String ns = Callers.freshNamespace();
        String team = "/team-" + ns;
        String bob = "bob-" + ns;
        String carol = "carol-" + ns;
        String dave = "dave-" + ns;
        catalogWithBucket(ns, "cat");
        asAdmin().body("{\"name\":\"sql\",\"spec\":{\"catalog\":\"cat\"}}").post(instances(ns, "trino"))
                .then().statusCode(201);
        Api.oidcClientReady(kube, ns, "trino", "sql");
        await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns, "sql")));
        assertThat(groupFile(ns)).isEmpty();
        String template = podTemplate(ns);

        Instant t0 = Instant.now();
        try (EventWriter writer = new EventWriter()) {
            writer.send(Api.groupsSeen(bob, t0, team, "/elsewhere"));
            writer.send(Api.groupsSeen(carol, t0, team));
            writer.send(Api.groupsSeen(dave, t0, "/elsewhere"));
            Api.grant(EventType.GRANT_ADDED, ns, "trino", "sql", "group", team);
            await().atMost(CONVERGE).until(() -> groupFile(ns).equals(team + ":" + bob + "," + carol + "\n"));
            // Names are matched exactly: '/' is not plain, so the rule quotes it.
            assertThat(rules(ns).path("queries").findValuesAsText("group")).containsExactly(Pattern.quote(team));

            // bob leaves the group (his next token says so); a replay of his older sighting changes nothing.
            writer.send(Api.groupsSeen(bob, t0.plusSeconds(60), "/elsewhere"));
            await().atMost(CONVERGE).until(() -> groupFile(ns).equals(team + ":" + carol + "\n"));
            writer.send(Api.groupsSeen(bob, t0, team, "/elsewhere"));
            writer.send(Api.groupsSeen(dave, t0.plusSeconds(60), team));
            await().atMost(CONVERGE).until(() -> groupFile(ns).contains(dave));
            assertThat(groupFile(ns)).isEqualTo(team + ":" + carol + "," + dave + "\n");
        }

        Api.grant(EventType.GRANT_REMOVED, ns, "trino", "sql", "group", team);
        await().atMost(CONVERGE).until(() -> groupFile(ns).isEmpty());
        assertThat(rules(ns).toString()).doesNotContain(team);
        assertThat(podTemplate(ns)).as("the coordinator keeps running").isEqualTo(template);
    }

    private String groupFile(String ns) {
        ConfigMap access = kube.configMaps().inNamespace(ns).withName("sql-access").get();
        return access == null ? "" : access.getData().getOrDefault("groups.txt", "");
    }

    /**
     * Grant events are applied once (a redelivered grant-added does not bring back a removed grant), and
     * a malformed one goes to {@code lakehouse.access.dlq} while the following ones still apply.
     */
    @Test
    void grantEventsAreAppliedOnceAndAMalformedOneIsDeadLettered() throws Exception {
        String ns = Callers.freshNamespace();
        String subject = LakehouseEvent.instanceSubject(ns, "trino", "sql");
        catalogWithBucket(ns, "cat");
        asAdmin().body("{\"name\":\"sql\",\"spec\":{\"catalog\":\"cat\"}}").post(instances(ns, "trino"))
                .then().statusCode(201);
        Api.oidcClientReady(kube, ns, "trino", "sql");
        await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns, "sql")));
        ObjectMapper json = new ObjectMapper();
        try (EventWriter writer = new EventWriter(); EventReader dlq = new EventReader("lakehouse.access.dlq")) {
            LakehouseEvent added = LakehouseEvent.of("/lakehouse/access-service", EventType.GRANT_ADDED, subject,
                    json.createObjectNode().put("namespace", ns).put("kind", "trino").put("name", "sql")
                            .put("subjectType", "user").put("subject", "erin"));
            writer.send(added);
            await().atMost(CONVERGE).until(() -> rules(ns).toString().contains("erin"));
            Api.grant(EventType.GRANT_REMOVED, ns, "trino", "sql", "user", "erin");
            await().atMost(CONVERGE).until(() -> !rules(ns).toString().contains("erin"));

            writer.send(added); // redelivered: same event id
            writer.send(LakehouseEvent.of("/lakehouse/access-service", EventType.GRANT_ADDED, subject,
                    json.createObjectNode().put("namespace", ns).put("kind", "trino").put("name", "sql")
                            .put("subjectType", "robot").put("subject", "r2")));
            Api.grant(EventType.GRANT_ADDED, ns, "trino", "sql", "user", "frank");
            await().atMost(CONVERGE).until(() -> rules(ns).toString().contains("frank"));
            await().atMost(CONVERGE).until(() -> !dlq.records(subject).isEmpty());
            assertThat(rules(ns).toString()).doesNotContain("erin", "r2");
        }
    }

    /**
     * A rotated OIDC client secret rolls the coordinator: its pod template carries a digest of the
     * Secrets it uses, which changes with their data and shows none of it.
     */
    @Test
    void aChangedSecretRollsThePodsWithoutShowingItsValue() {
        String ns = Callers.freshNamespace();
        catalogWithBucket(ns, "cat");
        asAdmin().body("{\"name\":\"sql\",\"spec\":{\"catalog\":\"cat\"}}").post(instances(ns, "trino"))
                .then().statusCode(201);
        Api.oidcClientReady(kube, ns, "trino", "sql");
        await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns, "sql")));
        String before = digest(ns, "sql");
        String workersBefore = digest(ns, "sql-worker");
        assertThat(before).matches("[0-9a-f]{64}");

        Api.oidcClientReady(kube, ns, "trino", "sql", "rotated-client-secret-value");
        await().atMost(CONVERGE).until(() -> !before.equals(digest(ns, "sql")));
        assertThat(digest(ns, "sql-worker")).as("workers do not use the OIDC client").isEqualTo(workersBefore);

        // The bucket's keys change: every pod using them rolls once the instance is looked at again.
        kube.secrets().inNamespace(ns).withName("warehouse-bucket").edit(s -> {
            s.getData().put("AWS_SECRET_ACCESS_KEY", Base64.getEncoder().encodeToString(
                    "rotated-s3-secret-value".getBytes(StandardCharsets.UTF_8)));
            return s;
        });
        Api.catalogReady(ns, "cat");
        await().atMost(CONVERGE).until(() -> !workersBefore.equals(digest(ns, "sql-worker")));
        String yaml = Serialization.asYaml(kube.apps().deployments().inNamespace(ns).withName("sql").get())
                + Serialization.asYaml(kube.apps().deployments().inNamespace(ns).withName("sql-worker").get());
        assertThat(yaml).doesNotContain("rotated-client-secret-value", "rotated-s3-secret-value",
                Base64.getEncoder().encodeToString("rotated-s3-secret-value".getBytes(StandardCharsets.UTF_8)));
    }

    private String digest(String ns, String deployment) {
        return kube.apps().deployments().inNamespace(ns).withName(deployment).get().getSpec().getTemplate()
                .getMetadata().getAnnotations().get("lakehouse.io/secrets-digest");
    }

    private JsonNode rules(String ns) throws Exception {
        ConfigMap access = kube.configMaps().inNamespace(ns).withName("sql-access").get();
        return access == null ? MissingNode.getInstance() : new ObjectMapper().readTree(access.getData().get("rules.json"));
    }

    private String podTemplate(String ns) {
        return kube.apps().deployments().inNamespace(ns).withName("sql").get().getSpec().getTemplate().toString();
    }

    @Test
    void aTrinoFollowsItsCatalog() {
        String ns = Callers.freshNamespace();
        catalogWithBucket(ns, "cat");
        asAdmin().body("{\"name\":\"sql\",\"spec\":{\"catalog\":\"cat\"}}").post(instances(ns, "trino"))
                .then().statusCode(201);
        Api.oidcClientReady(kube, ns, "trino", "sql");
        await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns, "sql")));

        try (EventWriter writer = new EventWriter()) {
            writer.send(Api.catalogEvent(EventType.INSTANCE_DEGRADED, ns, "cat", "Degraded"));
        }
        await().atMost(CONVERGE).until(() -> "CatalogNotReady".equals(reason(ns, "sql", "CatalogReady")));
        assertThat(phase(ns, "sql")).isEqualTo("Degraded");

        Api.catalogReady(ns, "cat");
        await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns, "sql")));
    }

    @Test
    void objectsDeletedByHandComeBack() {
        String ns = Callers.freshNamespace();
        catalogWithBucket(ns, "cat");
        asAdmin().body("{\"name\":\"sql\",\"spec\":{\"catalog\":\"cat\"}}").post(instances(ns, "trino"))
                .then().statusCode(201);
        Api.oidcClientReady(kube, ns, "trino", "sql");
        await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns, "sql")));

        kube.configMaps().inNamespace(ns).withName("sql-catalog").delete();
        kube.apps().deployments().inNamespace(ns).withName("sql-worker").edit(d -> {
            d.getSpec().setReplicas(7);
            return d;
        });
        await().atMost(CONVERGE).until(() -> kube.configMaps().inNamespace(ns).withName("sql-catalog").get() != null
                && kube.apps().deployments().inNamespace(ns).withName("sql-worker").get().getSpec().getReplicas() == 2);
    }

    /** A Ready catalog on the namespace bucket {@code warehouse-bucket}, known to the service. */
    private void catalogWithBucket(String ns, String name) {
        Api.bucketSecret(kube, ns, "warehouse-bucket");
        Api.catalogReady(ns, name);
        awaitCatalogKnown(ns, name);
    }

    private void awaitCatalogKnown(String ns, String name) {
        await().atMost(CONVERGE).until(() -> pool.preparedQuery("SELECT 1 FROM catalogs WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(ns, name)).await().indefinitely().size() == 1);
    }

    private static String phase(String ns, String name) {
        return asAdmin().get(instances(ns, "trino") + "/" + name).jsonPath().getString("status.phase");
    }

    private static String reason(String ns, String name, String type) {
        return asAdmin().get(instances(ns, "trino") + "/" + name).jsonPath()
                .getString("status.conditions.find { it.type == '" + type + "' }.reason");
    }

    private List<HasMetadata> owned(String ns, String name) {
        List<HasMetadata> all = new ArrayList<>();
        Stream.of(kube.configMaps().inNamespace(ns).withLabel("app.kubernetes.io/instance", name).list().getItems(),
                        kube.secrets().inNamespace(ns).withLabel("app.kubernetes.io/instance", name)
                                .withLabel("app.kubernetes.io/managed-by", "engines-service").list().getItems(),
                        kube.apps().deployments().inNamespace(ns).withLabel("app.kubernetes.io/instance", name).list().getItems(),
                        kube.services().inNamespace(ns).withLabel("app.kubernetes.io/instance", name).list().getItems(),
                        kube.network().v1().ingresses().inNamespace(ns).withLabel("app.kubernetes.io/instance", name)
                                .list().getItems(),
                        kube.network().v1().networkPolicies().inNamespace(ns)
                                .withLabel("app.kubernetes.io/instance", name).list().getItems())
                .forEach(all::addAll);
        return all;
    }

    private static List<EventType> types(List<LakehouseEvent> events) {
        return events.stream().map(LakehouseEvent::type).toList();
    }
}
