package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Names that cannot collide and objects that are never taken over: the shared name registry, the
 * apply primitive's ownership check, stateful objects kept by the orphan pass, and a recreated
 * database initialized again.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class CatalogNamesAndOwnershipTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    String ns;

    @BeforeEach
    void namespace() {
        ClusterSimulation.of(kube);
        ns = Callers.freshNamespace();
    }

    @Test
    void aNameTakenByAnotherKindInTheNamespaceIsRefusedAndNothingIsStored() {
        // What engines-service claims when it stores a trino named "shared".
        pool.preparedQuery("INSERT INTO registry.instance_names (namespace, name, kind, uid, host_label)"
                + " VALUES ($1, 'shared', 'trino', $2, $3)")
                .execute(Tuple.of(ns, UUID.randomUUID(), "shared-" + ns)).await().atMost(Duration.ofSeconds(5));

        asAdmin().body(Api.catalogRequest("shared", "k").toString()).post(catalogs(ns))
                .then().statusCode(409)
                .body("detail", equalTo("the name 'shared' is already used in namespace '" + ns + "' by the trino"
                        + " instance 'shared': an instance name is unique in its namespace across every kind, since"
                        + " the instances' Kubernetes objects are named after it"));
        asAdmin().get(catalogs(ns) + "/shared").then().statusCode(404);
        assertThat(kube.configMaps().inNamespace(ns).list().getItems()).isEmpty();
    }

    @Test
    void twoNamespacesCannotGetTheSameHostAndTheNameIsFreeAgainAfterDelete() {
        // namespace "p-<x>" + instance "a" and namespace "<x>" + instance "a-p" both give host "a-p-<x>".
        String other = "q" + UUID.randomUUID().toString().substring(0, 8);
        String first = "p-" + other;
        asAdmin().body(Api.catalogRequest("a", "k").toString()).post(catalogs(first)).then().statusCode(201);

        asAdmin().body(Api.catalogRequest("a-p", "k").toString()).post(catalogs(other))
                .then().statusCode(409)
                .body("detail", equalTo("the public host name 'a-p-" + other + "' this instance would get is already"
                        + " used by an instance of another namespace: choose another name"));
        asAdmin().get(catalogs(other) + "/a-p").then().statusCode(404);

        asAdmin().delete(catalogs(first) + "/a").then().statusCode(202);
        await().atMost(CONVERGE).until(() -> asAdmin().get(catalogs(first) + "/a").statusCode() == 404);
        asAdmin().body(Api.catalogRequest("a-p", "k").toString()).post(catalogs(other)).then().statusCode(201);
    }

    @Test
    void anObjectOfTheSameNameThatIsNotTheInstancesIsLeftAloneAndTheStatusSaysWhy() {
        Deployment users = new DeploymentBuilder().withNewMetadata().withName("cat").addToLabels("team", "web")
                .endMetadata().withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", "web")
                .endSelector().withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
                .withNewSpec().addNewContainer().withName("web").withImage("nginx:1.27").endContainer().endSpec()
                .endTemplate().endSpec().build();
        kube.apps().deployments().inNamespace(ns).resource(users).create();

        asAdmin().body(Api.catalogRequest("cat", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        CatalogLifecycleTest.awaitPhase(ns, "cat", "Failed");
        JsonPath status = asAdmin().get(catalogs(ns) + "/cat").jsonPath();
        assertThat(status.getString("status.conditions.find { it.type == 'Ready' }.reason")).isEqualTo("ObjectConflict");
        assertThat(status.getString("status.conditions.find { it.type == 'Ready' }.message")).isEqualTo(
                "Deployment 'cat' already exists in namespace '" + ns + "' and it is not managed by the lakehouse"
                        + " services: it is left untouched; delete or rename it, or delete this instance");
        Deployment after = kube.apps().deployments().inNamespace(ns).withName("cat").get();
        assertThat(after.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("nginx:1.27");
        assertThat(after.getMetadata().getLabels()).isEqualTo(Map.of("team", "web"));

        // Once the user's Deployment is gone, the next pass (here: a patch) deploys the catalog.
        kube.apps().deployments().inNamespace(ns).withName("cat").delete();
        await().atMost(CONVERGE).until(() -> kube.apps().deployments().inNamespace(ns).withName("cat").get() == null);
        asAdmin().contentType("application/merge-patch+json").body("{\"spec\":{\"resources\":{\"memory\":\"2Gi\"}}}")
                .patch(catalogs(ns) + "/cat").then().statusCode(200);
        CatalogLifecycleTest.awaitPhase(ns, "cat", "Ready");
    }

    @Test
    void theDatabaseIsNotOwnedByTheRootAndSurvivesTheOrphanPass() {
        asAdmin().body(Api.catalogRequest("kept", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        CatalogLifecycleTest.awaitPhase(ns, "kept", "Ready");
        GenericKubernetesResource db = cluster("kept-db");
        // Garbage collection after a hand-deleted root object cannot reach it.
        assertThat(db.getMetadata().getOwnerReferences()).isEmpty();

        // As after restoring an older service database: the row is gone, the objects are not.
        pool.preparedQuery("DELETE FROM instances WHERE namespace = $1 AND name = 'kept'").execute(Tuple.of(ns))
                .await().atMost(Duration.ofSeconds(5));
        kube.services().inNamespace(ns).withName("kept").delete();
        await().atMost(CONVERGE).until(() -> kube.apps().deployments().inNamespace(ns).withName("kept").get() == null);
        assertThat(cluster("kept-db")).isNotNull();
        assertThat(cluster("kept-db").getMetadata().getUid()).isEqualTo(db.getMetadata().getUid());
    }

    @Test
    void aRecreatedDatabaseGetsItsRealmAndCatalogAgain() {
        asAdmin().body(Api.catalogRequest("cat", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        CatalogLifecycleTest.awaitPhase(ns, "cat", "Ready");
        String oldUid = cluster("cat-db").getMetadata().getUid();
        assertThat(realmInitDatabase()).isEqualTo(oldUid);

        kube.genericKubernetesResources(ResourceKind.CNPG_CLUSTER.apiVersion(), ResourceKind.CNPG_CLUSTER.kind())
                .inNamespace(ns).withName("cat-db").delete();
        // Recreated (new uid), the realm task runs again on it, and the catalog is usable again.
        await().atMost(CONVERGE).until(() -> {
            GenericKubernetesResource c = cluster("cat-db");
            return c != null && !c.getMetadata().getUid().equals(oldUid);
        });
        String newUid = cluster("cat-db").getMetadata().getUid();
        await().atMost(CONVERGE).until(() -> newUid.equals(realmInitDatabase()));
        CatalogLifecycleTest.awaitPhase(ns, "cat", "Ready");
        assertThat(asAdmin().get(catalogs(ns) + "/cat").jsonPath()
                .getString("status.conditions.find { it.type == 'RealmInitialized' }.message"))
                .isEqualTo("done on database " + newUid);
    }

    private String realmInitDatabase() {
        var job = kube.batch().v1().jobs().inNamespace(ns).withName("cat-realm-init").get();
        return job == null ? null : job.getMetadata().getAnnotations().get("lakehouse.io/database-uid");
    }

    private GenericKubernetesResource cluster(String name) {
        return kube.genericKubernetesResources(ResourceKind.CNPG_CLUSTER.apiVersion(), ResourceKind.CNPG_CLUSTER.kind())
                .inNamespace(ns).withName(name).get();
    }
}
