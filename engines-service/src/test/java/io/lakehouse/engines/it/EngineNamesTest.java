package io.lakehouse.engines.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.engines.it.Api.instances;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Engine names come from the registry every instance service shares: one name per namespace, whatever the
 * kind and the service (engine kinds among themselves: EngineKindsLifecycleTest).
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class EngineNamesTest {

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    @Test
    void anEngineNamedLikeTheNamespacesCatalogIsRefusedAndNothingIsStoredOrCreated() {
        ClusterSimulation.of(kube);
        String ns = Callers.freshNamespace();
        Api.bucketSecret(kube, ns, "warehouse-bucket");
        Api.catalogReady(ns, "cat");
        await().atMost(Duration.ofSeconds(30)).until(() -> pool.preparedQuery("SELECT 1 FROM catalogs WHERE namespace"
                + " = $1 AND name = 'cat'").execute(Tuple.of(ns)).await().indefinitely().size() == 1);
        // What catalog-service claimed when it stored the catalog "cat".
        pool.preparedQuery("INSERT INTO registry.instance_names (namespace, name, kind, uid, host_label)"
                + " VALUES ($1, 'cat', 'iceberg-catalog', $2, $3)")
                .execute(Tuple.of(ns, UUID.randomUUID(), "cat-" + ns)).await().atMost(Duration.ofSeconds(5));

        asAdmin().body("{\"name\":\"cat\",\"spec\":{\"catalog\":\"cat\"}}").post(instances(ns, "spark-connect"))
                .then().statusCode(409)
                .body("detail", equalTo("the name 'cat' is already used in namespace '" + ns + "' by the"
                        + " iceberg-catalog instance 'cat': an instance name is unique in its namespace across every"
                        + " kind, since the instances' Kubernetes objects are named after it"));
        asAdmin().get(instances(ns, "spark-connect") + "/cat").then().statusCode(404);
        assertThat(kube.configMaps().inNamespace(ns).list().getItems()).isEmpty();
    }
}
