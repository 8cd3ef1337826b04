package io.lakehouse.notebooks.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.notebooks.it.Api.instances;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A JupyterHub from request to Ready, wired to the lakehouse, and back to nothing, against the mock API. */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class JupyterHubLifecycleTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);
    private static final String CANARY = "canary-0idc-" + "5e3c1a90";
    private static final String HUB = instances("%s", "jupyterhub");

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    @BeforeEach
    void simulate() {
        ClusterSimulation.of(kube);
    }

    @Test
    void aHubWaitsForItsOidcClientRunsWiredToTheLakehouseFollowsItsInstancesAndGoes() throws Exception {
        String ns = Callers.freshNamespace();
        lakehouse(ns);
        Api.bucketSecret(kube, ns, "warehouse-bucket");
        try (EventReader events = new EventReader("lakehouse.instances")) {
            // The deployer (a platform admin here) becomes the hub's administrator.
            Callers.as("alice", Callers.ADMIN_GROUP).body("""
                    {"name": "notebooks", "spec": {
                      "lakehouse": {"catalog": "cat", "trino": "trino", "sparkConnect": "spark", "mlflow": "mlflow"},
                      "storage": {"bucket": "warehouse", "endpoint": "http://minio.storage.svc:9000",
                                  "region": "us-east-1", "credentialsSecret": "warehouse-bucket"}}}""")
                    .post(hubs(ns)).then().statusCode(201);
            // Nothing runs before the OIDC client exists, and the status says why.
            await().atMost(CONVERGE).until(() -> condition(ns, "OidcClientReady").contains("WaitingForOidcClient"));
            assertThat(kube.apps().deployments().inNamespace(ns).withName("notebooks-hub").get()).isNull();

            Api.oidcClientReady(kube, ns, "jupyterhub", "notebooks", CANARY);
            await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns)));
            String config = config(ns);
            assertThat(config).contains("\"POLARIS_URI\": {\"valueFrom\": {\"secretKeyRef\": {\"key\": \"catalogUri\","
                    + " \"name\": \"cat-root-principal\"}}}",
                    "\"TRINO_HOST\": \"trino." + ns + ".svc:8443\"",
                    "\"SPARK_REMOTE\": \"sc://spark." + ns + ".svc:15443/;use_ssl=true\"",
                    "\"SPARK_CONNECT_AUTHENTICATE_TOKEN\": {\"valueFrom\": {\"secretKeyRef\": {\"key\": \"token\","
                            + " \"name\": \"spark-platform\"}}}",
                    "\"MLFLOW_TRACKING_URI\": \"http://mlflow." + ns + ".svc:5000\"",
                    "\"AWS_SECRET_ACCESS_KEY\": {\"valueFrom\": {\"secretKeyRef\": {\"key\": \"AWS_SECRET_ACCESS_KEY\","
                            + " \"name\": \"warehouse-bucket\"}}}",
                    "c.Authenticator.admin_users = {\"alice\"}");
            assertThat(kube.rbac().roles().inNamespace(ns).withName("notebooks-hub").get()).isNotNull();
            assertThat(kube.persistentVolumeClaims().inNamespace(ns).withName("notebooks-hub-db").get()).isNotNull();

            assertThat(condition(ns, "VariablesCurrent")).isEqualTo("Current");
            // A user server, as KubeSpawner starts it (labels of the hub), started now.
            kube.pods().inNamespace(ns).resource(new PodBuilder()
                    .withNewMetadata().withName("jupyter-notebooks-bob").withLabels(Map.of(
                            "app.kubernetes.io/instance", "notebooks", "lakehouse.io/kind", "jupyterhub",
                            "app.kubernetes.io/managed-by", "kubespawner", "app.kubernetes.io/name", "jupyterhub",
                            "app.kubernetes.io/part-of", "lakehouse")).endMetadata()
                    .withNewSpec().addNewContainer().withName("notebook").withImage("ds/jupyter-datastack")
                    .endContainer().endSpec()
                    .withNewStatus().withStartTime(Instant.now().toString()).endStatus()
                    .build()).create();

            // A bound instance deleted, then created again: new servers get what exists now, nobody edits the
            // hub, and its status says which variables the running server has stale.
            Api.engineEvent(EventType.INSTANCE_DELETED, ns, "mlflow", "mlflow", "http://mlflow." + ns + ".svc:5000", false);
            await().atMost(CONVERGE).until(() -> !config(ns).contains("MLFLOW_TRACKING_URI"));
            await().atMost(CONVERGE).until(() -> condition(ns, "VariablesCurrent").equals("InstanceMissing"));
            Api.engineEvent(EventType.INSTANCE_REQUESTED, ns, "mlflow", "mlflow", "http://mlflow." + ns + ".svc:5001",
                    false);
            await().atMost(CONVERGE).until(() -> config(ns).contains("\"MLFLOW_TRACKING_URI\": \"http://mlflow." + ns
                    + ".svc:5001\""));
            await().atMost(CONVERGE).until(() -> condition(ns, "VariablesCurrent").equals("ServersStale"));
            assertThat(message(ns, "VariablesCurrent")).isEqualTo("mlflow 'mlflow' changed after 1 running server(s)"
                    + " started, which keep stale or no MLFLOW_TRACKING_URI (restart them)");

            // The OIDC client's secret is nowhere but in its Secret.
            Response view = asAdmin().get(hubs(ns) + "/notebooks");
            assertThat(view.asString()).doesNotContain(CANARY);
            assertThat(kube.configMaps().inNamespace(ns).list().getItems()).extracting(ConfigMap::getData)
                    .allSatisfy(data -> assertThat(String.valueOf(data)).doesNotContain(CANARY));
            assertThat(events.events(ns + "/jupyterhub/notebooks")).isNotEmpty()
                    .allSatisfy(e -> assertThat(e.data().toString()).doesNotContain(CANARY));
            assertThat(Files.readString(Path.of("target", "quarkus-test.log"))).doesNotContain(CANARY);

            Response deleting = asAdmin().delete(hubs(ns) + "/notebooks");
            assertThat(deleting.statusCode()).isEqualTo(202);
            assertThat(deleting.jsonPath().getString("status.conditions.find { it.type == 'UserVolumes' }.message"))
                    .startsWith("the users' volumes (claim-notebooks-<user>) are kept");
            await().atMost(CONVERGE).until(() -> asAdmin().get(hubs(ns) + "/notebooks").statusCode() == 404);
            assertThat(kube.apps().deployments().inNamespace(ns).withName("notebooks-hub").get()).isNull();
            assertThat(kube.rbac().roles().inNamespace(ns).withName("notebooks-hub").get()).isNull();
            assertThat(kube.serviceAccounts().inNamespace(ns).withName("notebooks-hub").get()).isNull();
            assertThat(kube.configMaps().inNamespace(ns).withName("notebooks-hub-config").get()).isNull();
        }
    }

    @Test
    void oneHubPerNamespaceEvenWhenTwoArriveAtOnce() {
        String ns = Callers.freshNamespace();
        List<CompletableFuture<Response>> racing = List.of("first", "second").stream()
                .map(name -> CompletableFuture.supplyAsync(() -> asAdmin()
                        .body("{\"name\": \"" + name + "\", \"spec\": {}}").post(hubs(ns))))
                .toList();
        List<Integer> statuses = racing.stream().map(f -> f.join().statusCode()).sorted().toList();
        assertThat(statuses).containsExactly(201, 409);
        String existing = asAdmin().get(hubs(ns)).jsonPath().getString("items[0].name");
        Response third = asAdmin().body("{\"name\": \"third\", \"spec\": {}}").post(hubs(ns));
        assertThat(third.statusCode()).isEqualTo(409);
        assertThat(third.jsonPath().getString("detail")).contains("'" + existing + "'", "one JupyterHub per namespace");
    }

    @Test
    void aReferenceToAnUnknownOrDeletingInstanceIsRefusedAndNothingIsStored() {
        String ns = Callers.freshNamespace();
        Api.engineEvent(EventType.INSTANCE_DELETING, ns, "trino", "old", "https://old." + ns + ".svc:8443", false);
        await().atMost(CONVERGE).until(() -> known(ns) == 1);
        Response r = asAdmin().body("""
                {"name": "notebooks", "spec": {"lakehouse": {"catalog": "nope", "trino": "old"}}}""").post(hubs(ns));
        assertThat(r.statusCode()).isEqualTo(422);
        assertThat(r.jsonPath().getList("errors.field")).containsExactly("spec.lakehouse.catalog", "spec.lakehouse.trino");
        assertThat(asAdmin().get(hubs(ns)).jsonPath().getList("items")).isEmpty();
        assertThat(kube.configMaps().inNamespace(ns).list().getItems()).isEmpty();
    }

    /**
     * A bound instance's new endpoint reaches the hub's config when nothing else of the hub changes: its status stays
     * the same, so only the binding tells the pass that its config is out of date (the bindings are among the inputs
     * that decide whether a pass may stop early or leave its objects unbuilt, {@code InstanceKind.contextInputs}).
     */
    @Test
    void aBoundInstancesNewEndpointReachesTheHubsConfigWhenNothingElseOfTheHubChanges() throws Exception {
        String ns = Callers.freshNamespace();
        lakehouse(ns);
        Api.bucketSecret(kube, ns, "warehouse-bucket");
        Callers.as("alice", Callers.ADMIN_GROUP).body("""
                {"name": "notebooks", "spec": {
                  "lakehouse": {"mlflow": "mlflow"},
                  "storage": {"bucket": "warehouse", "endpoint": "http://minio.storage.svc:9000",
                              "region": "us-east-1", "credentialsSecret": "warehouse-bucket"}}}""")
                .post(hubs(ns)).then().statusCode(201);
        Api.oidcClientReady(kube, ns, "jupyterhub", "notebooks", CANARY);
        await().atMost(CONVERGE).until(() -> "Ready".equals(phase(ns)));
        assertThat(config(ns)).contains("\"MLFLOW_TRACKING_URI\": \"http://mlflow." + ns + ".svc:5000\"");

        // The same event again wakes the hub for a pass that finds nothing new; then only the endpoint moves.
        Api.engineEvent(EventType.INSTANCE_READY, ns, "mlflow", "mlflow", "http://mlflow." + ns + ".svc:5000", false);
        Thread.sleep(2000);
        Api.engineEvent(EventType.INSTANCE_READY, ns, "mlflow", "mlflow", "http://tracking." + ns + ".svc:5000", false);
        await().atMost(CONVERGE).until(() -> config(ns).contains("\"MLFLOW_TRACKING_URI\": \"http://tracking." + ns
                + ".svc:5000\""));
        assertThat(condition(ns, "VariablesCurrent")).isEqualTo("Current");
    }

    @Test
    void anInstanceIsKnownAsItsEventsSayItsEndpointKeptItsTimeMovedOnlyWhenItComesOrGoes() {
        String ns = Callers.freshNamespace();
        Api.engineEvent(EventType.INSTANCE_REQUESTED, ns, "mlflow", "m", "http://m." + ns + ".svc:5000", false);
        await().atMost(CONVERGE).until(() -> known(ns, "m") != null);
        Known requested = known(ns, "m");

        // An update: the new endpoint is taken, the appearance time stays.
        Api.engineEvent(EventType.INSTANCE_READY, ns, "mlflow", "m", "http://m2." + ns + ".svc:5000", false);
        await().atMost(CONVERGE).until(() -> known(ns, "m").endpoint().startsWith("http://m2."));
        assertThat(known(ns, "m").changedAt()).isEqualTo(requested.changedAt());

        // Events without an endpoint keep the one known; going away moves the time.
        Api.engineEvent(EventType.INSTANCE_READY, ns, "mlflow", "m", null, false);
        Api.engineEvent(EventType.INSTANCE_DELETING, ns, "mlflow", "m", null, false);
        await().atMost(CONVERGE).until(() -> known(ns, "m").deleting());
        Known deleting = known(ns, "m");
        assertThat(deleting.endpoint()).isEqualTo("http://m2." + ns + ".svc:5000");
        assertThat(deleting.changedAt()).isAfter(requested.changedAt());

        // Coming back moves it again.
        Api.engineEvent(EventType.INSTANCE_REQUESTED, ns, "mlflow", "m", null, false);
        await().atMost(CONVERGE).until(() -> !known(ns, "m").deleting());
        assertThat(known(ns, "m").changedAt()).isAfter(deleting.changedAt());
        assertThat(known(ns, "m").endpoint()).isEqualTo("http://m2." + ns + ".svc:5000");
    }

    /** A row of known_instances: what hubs are wired with. */
    private record Known(String endpoint, boolean deleting, Instant changedAt) {}

    private Known known(String ns, String name) {
        var rows = pool.preparedQuery("SELECT internal_endpoint, deleting, changed_at FROM known_instances"
                        + " WHERE namespace = $1 AND kind = 'mlflow' AND name = $2")
                .execute(Tuple.of(ns, name)).await().atMost(CONVERGE);
        if (rows.size() == 0) {
            return null;
        }
        var row = rows.iterator().next();
        return new Known(row.getString(0), row.getBoolean(1), row.getOffsetDateTime(2).toInstant());
    }

    private void lakehouse(String ns) {
        Api.catalogReady(ns, "cat");
        Api.engineEvent(EventType.INSTANCE_READY, ns, "trino", "trino", "https://trino." + ns + ".svc:8443", false);
        Api.engineEvent(EventType.INSTANCE_READY, ns, "spark-connect", "spark",
                "sc://spark." + ns + ".svc:15443/;use_ssl=true", true);
        Api.engineEvent(EventType.INSTANCE_READY, ns, "mlflow", "mlflow", "http://mlflow." + ns + ".svc:5000", false);
        await().atMost(CONVERGE).until(() -> known(ns) == 4);
    }

    private long known(String ns) {
        return pool.preparedQuery("SELECT count(*) FROM known_instances WHERE namespace = $1").execute(Tuple.of(ns))
                .await().atMost(CONVERGE).iterator().next().getLong(0);
    }

    private String config(String ns) {
        ConfigMap cm = kube.configMaps().inNamespace(ns).withName("notebooks-hub-config").get();
        return cm == null ? "" : cm.getData().get("jupyterhub_config.py");
    }

    private static String hubs(String ns) {
        return HUB.formatted(ns);
    }

    private static String phase(String ns) {
        return asAdmin().get(hubs(ns) + "/notebooks").jsonPath().getString("status.phase");
    }

    private static String message(String ns, String type) {
        return String.valueOf(asAdmin().get(hubs(ns) + "/notebooks").jsonPath()
                .getString("status.conditions.find { it.type == '" + type + "' }.message"));
    }

    private static String condition(String ns, String type) {
        return String.valueOf(asAdmin().get(hubs(ns) + "/notebooks").jsonPath()
                .getString("status.conditions.find { it.type == '" + type + "' }.reason"));
    }
}
