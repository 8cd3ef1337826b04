package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogRequest;
import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.kube.ResourceKind;
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
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class CatalogLifecycleTest {

    private static final String CANARY = "canary-S3cr3t-" + "f7d1c0a2";
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
    void aCatalogGoesFromRequestToReadyThenAwayLeavingNothing() {
        String ns = Callers.freshNamespace();
        String name = "lakehouse-cat";
        String subject = ns + "/iceberg-catalog/" + name;
        try (EventReader events = new EventReader("lakehouse.instances")) {
            Response created = asAdmin().body(catalogRequest(name, CANARY).toString()).post(catalogs(ns));
            created.then().statusCode(201)
                    .header("Location", org.hamcrest.Matchers.endsWith(catalogs(ns) + "/" + name))
                    .body("spec.catalogName", equalTo("lakehouse"))
                    .body("spec.realm", equalTo("POLARIS"))
                    .body("spec.resources.memory", equalTo("1Gi"))
                    .body("spec.storage.credentialsSecret", equalTo(name + "-s3"))
                    .body("spec.storage", not(hasKey("secretAccessKey")))
                    .body("status.secrets", hasItem(name + "-root-principal"))
                    .body("createdBy", equalTo("root-admin"));
            assertThat(created.asString()).doesNotContain(CANARY);

            awaitPhase(ns, name, "Ready");
            assertCanaryOnlyInItsSecret(ns, name);
            Response ready = asAdmin().get(catalogs(ns) + "/" + name);
            List<String> statuses = ready.jsonPath().getList("status.conditions.status");
            assertThat(ready.jsonPath().getList("status.conditions.type", String.class))
                    .containsExactly("DatabaseReady", "ServerReady", "RealmInitialized", "CatalogCreated", "Ready");
            assertThat(statuses).containsOnly("True");
            assertThat(ready.jsonPath().getString("status.endpoints.public"))
                    .isEqualTo("https://" + name + "-" + ns + ".lakehouse.localtest.me/api/catalog");

            Secret principal = kube.secrets().inNamespace(ns).withName(name + "-root-principal").get();
            assertThat(principal.getData()).containsOnlyKeys("clientId", "clientSecret", "catalogUri", "catalogName");
            assertThat(decode(principal, "catalogName")).isEqualTo("lakehouse");
            assertThat(decode(principal, "catalogUri")).isEqualTo("http://" + name + "." + ns + ".svc:8181/api/catalog");
            assertThat(decode(kube.secrets().inNamespace(ns).withName(name + "-s3").get(), "AWS_SECRET_ACCESS_KEY"))
                    .isEqualTo(CANARY);
            ConfigMap root = kube.configMaps().inNamespace(ns).withName(name + "-instance").get();
            for (HasMetadata o : owned(ns, name)) {
                // The database is deleted only with the instance, never by garbage collection.
                if (o.getKind().equals("Cluster")) {
                    assertThat(o.getMetadata().getOwnerReferences()).isNullOrEmpty();
                } else if (!o.getMetadata().getName().equals(root.getMetadata().getName())) {
                    assertThat(o.getMetadata().getOwnerReferences()).as(o.getKind() + " " + o.getMetadata().getName())
                            .singleElement().satisfies(ref -> assertThat(ref.getUid()).isEqualTo(root.getMetadata().getUid()));
                }
            }
            assertThat(kube.network().v1().ingresses().inNamespace(ns).withName(name).get().getSpec().getRules().get(0)
                    .getHost()).isEqualTo(name + "-" + ns + ".lakehouse.localtest.me");
            assertThat(kube.network().v1().networkPolicies().inNamespace(ns).withName(name).get().getSpec()
                    .getIngress()).hasSize(2);
            assertThat(kube.batch().v1().jobs().inNamespace(ns).list().getItems()).extracting(j -> j.getMetadata().getName())
                    .containsExactlyInAnyOrder(name + "-realm-init", name + "-catalog-init");
            await().atMost(CONVERGE).until(() -> types(events.events(subject)).containsAll(
                    List.of(EventType.INSTANCE_REQUESTED, EventType.INSTANCE_RUNNING, EventType.INSTANCE_READY)));
            assertThat(types(events.events(subject)).get(0)).isEqualTo(EventType.INSTANCE_REQUESTED);

            asAdmin().contentType("application/merge-patch+json")
                    .body("{\"spec\":{\"resources\":{\"memory\":\"2Gi\"},\"database\":{\"storageSize\":\"5Gi\"}}}")
                    .patch(catalogs(ns) + "/" + name)
                    .then().statusCode(200).body("generation", equalTo(2)).body("spec.resources.memory", equalTo("2Gi"));
            await().atMost(CONVERGE).until(() -> "2Gi".equals(kube.apps().deployments().inNamespace(ns).withName(name).get()
                    .getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits().get("memory")
                    .toString()));
            await().atMost(CONVERGE).until(() -> "5Gi".equals(storageSize(ns, name)));
            await().atMost(CONVERGE).until(() -> types(events.events(subject)).contains(EventType.INSTANCE_UPDATED));

            asAdmin().delete(catalogs(ns) + "/" + name).then().statusCode(202).body("status.phase", equalTo("Deleting"));
            await().atMost(CONVERGE).until(() -> asAdmin().get(catalogs(ns) + "/" + name).statusCode() == 404);
            assertThat(owned(ns, name)).isEmpty();
            assertThat(kube.secrets().inNamespace(ns).withName(name + "-db-app").get()).isNull();
            await().atMost(CONVERGE).until(() -> types(events.events(subject)).contains(EventType.INSTANCE_DELETED));
            List<EventType> all = types(events.events(subject));
            assertThat(all.get(all.size() - 1)).isEqualTo(EventType.INSTANCE_DELETED);
            events.records(subject).forEach(r -> assertThat(new String(r.value(), StandardCharsets.UTF_8))
                    .doesNotContain(CANARY));
        }
    }

    /**
     * The fault suite's teardown race: a catalog deleted as soon as it was requested, or as soon as its database
     * exists (its watch event may still be on the way), leaves nothing labelled with it, its database included.
     */
    @Test
    void catalogsDeletedRightAfterTheirRequestOrTheirDatabaseLeaveNothing() {
        String ns = Callers.freshNamespace();
        for (int i = 0; i < 12; i++) {
            String name = "churn-" + i;
            asAdmin().body(catalogRequest(name, CANARY).toString()).post(catalogs(ns)).then().statusCode(201);
            if (i % 2 == 1) {
                await().atMost(CONVERGE).pollInterval(Duration.ofMillis(5)).until(() -> ResourceKind.CNPG_CLUSTER
                        .operations(kube).inNamespace(ns).withName(name + "-db").get() != null);
            }
            asAdmin().delete(catalogs(ns) + "/" + name).then().statusCode(202);
        }
        for (int i = 0; i < 12; i++) {
            String name = "churn-" + i;
            await().atMost(CONVERGE).until(() -> asAdmin().get(catalogs(ns) + "/" + name).statusCode() == 404);
            assertThat(owned(ns, name)).as(name).isEmpty();
        }
    }

    @Test
    void aDuplicateNameIsAConflictAndChangesNothing() {
        String ns = Callers.freshNamespace();
        asAdmin().body(catalogRequest("cat", CANARY).toString()).post(catalogs(ns)).then().statusCode(201);
        asAdmin().body(catalogRequest("cat", "other").toString()).post(catalogs(ns))
                .then().statusCode(409).contentType("application/problem+json").body("status", equalTo(409));
        asAdmin().get(catalogs(ns)).then().statusCode(200).body("items.size()", equalTo(1));
    }

    /** The typed secret key is in {@code <name>-s3} and nowhere else: not in the database, annotations or logs. */
    private void assertCanaryOnlyInItsSecret(String ns, String name) {
        String rows = pool.query("SELECT spec::text || coalesce(sealed_credentials::text, '') || conditions::text"
                + " FROM instances").execute().await().indefinitely().iterator().next().getString(0);
        assertThat(rows).doesNotContain(CANARY);
        for (HasMetadata o : owned(ns, name)) {
            assertThat(String.valueOf(o.getMetadata().getAnnotations())).doesNotContain(CANARY);
            if (!(o instanceof Secret)) {
                assertThat(kube.getKubernetesSerialization().asJson(o)).doesNotContain(CANARY);
            }
        }
        assertThat(TestLogs.text()).doesNotContain(CANARY);
    }

    @Test
    void aCatalogStillUsedByAnEngineIsNotDeleted() {
        String ns = Callers.freshNamespace();
        asAdmin().body(catalogRequest("cat", CANARY).toString()).post(catalogs(ns)).then().statusCode(201);
        try (EventWriter writer = new EventWriter()) {
            writer.send(Api.engineEvent(EventType.INSTANCE_REQUESTED, ns, "trino", "t1", "cat"));
            await().atMost(CONVERGE).until(() -> asAdmin().get(catalogs(ns) + "/cat").jsonPath()
                    .getList("status.usedBy").contains("trino/t1"));
            asAdmin().delete(catalogs(ns) + "/cat").then().statusCode(409)
                    .body("detail", org.hamcrest.Matchers.containsString("trino/t1"));
            asAdmin().get(catalogs(ns) + "/cat").then().statusCode(200)
                    .body("status.phase", not(equalTo("Deleting")));
            writer.send(Api.engineEvent(EventType.INSTANCE_DELETED, ns, "trino", "t1", "cat"));
            await().atMost(CONVERGE).until(() -> asAdmin().get(catalogs(ns) + "/cat").jsonPath()
                    .getList("status.usedBy").isEmpty());
            asAdmin().delete(catalogs(ns) + "/cat").then().statusCode(202);
        }
        await().atMost(CONVERGE).until(() -> asAdmin().get(catalogs(ns) + "/cat").statusCode() == 404);
    }

    static void awaitPhase(String ns, String name, String phase) {
        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(100))
                .until(() -> phase.equals(asAdmin().get(catalogs(ns) + "/" + name).jsonPath().getString("status.phase")));
    }

    private List<HasMetadata> owned(String ns, String name) {
        return List.of(ResourceKind.CONFIG_MAP, ResourceKind.SECRET, ResourceKind.DEPLOYMENT, ResourceKind.SERVICE,
                        ResourceKind.INGRESS, ResourceKind.NETWORK_POLICY, ResourceKind.JOB, ResourceKind.CNPG_CLUSTER)
                .stream()
                .flatMap(k -> {
                    List<HasMetadata> items = k.operations(kube).inNamespace(ns)
                            .withLabel("app.kubernetes.io/instance", name).list().getItems();
                    return items.stream();
                })
                .toList();
    }

    private String storageSize(String ns, String name) {
        GenericKubernetesResource cluster = (GenericKubernetesResource) ResourceKind.CNPG_CLUSTER.operations(kube)
                .inNamespace(ns).withName(name + "-db").get();
        return String.valueOf(((java.util.Map<?, ?>) ((java.util.Map<?, ?>) cluster.getAdditionalProperties().get("spec"))
                .get("storage")).get("size"));
    }

    private static List<EventType> types(List<LakehouseEvent> events) {
        return events.stream().map(LakehouseEvent::type).toList();
    }

    private static String decode(Secret secret, String key) {
        return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
    }
}
