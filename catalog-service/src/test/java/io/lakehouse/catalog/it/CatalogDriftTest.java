package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Level-triggered reconcile: hand edits and deletions come back; leftovers converge without duplicates. */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class CatalogDriftTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);

    @Inject
    KubernetesClient kube;

    String ns;

    @BeforeEach
    void namespace() {
        ClusterSimulation.of(kube);
        ns = Callers.freshNamespace();
    }

    @Test
    void objectsDeletedOrEditedByHandAreRepaired() {
        asAdmin().body(Api.catalogRequest("cat", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        CatalogLifecycleTest.awaitPhase(ns, "cat", "Ready");
        Secret principal = kube.secrets().inNamespace(ns).withName("cat-root-principal").get();

        kube.apps().deployments().inNamespace(ns).withName("cat").delete();
        kube.services().inNamespace(ns).withName("cat").delete();
        kube.secrets().inNamespace(ns).withName("cat-s3").delete();
        await().atMost(CONVERGE).until(() -> kube.apps().deployments().inNamespace(ns).withName("cat").get() != null
                && kube.services().inNamespace(ns).withName("cat").get() != null
                && kube.secrets().inNamespace(ns).withName("cat-s3").get() != null);

        // The repair above may still be writing (the recreated Secret changes the pods' digest, the simulated
        // kubelet writes the status): like kubectl edit, the hand edit is retried on a conflict.
        await().atMost(CONVERGE).ignoreExceptionsInstanceOf(KubernetesClientException.class).until(() -> {
            kube.apps().deployments().inNamespace(ns).withName("cat").edit(d -> new DeploymentBuilder(d).editSpec()
                    .editTemplate().editSpec().editFirstContainer().withImage("evil/polaris:latest").endContainer()
                    .endSpec().endTemplate().endSpec().build());
            return true;
        });
        await().atMost(CONVERGE).until(() -> image(ns, "cat").equals("apache/polaris:1.7.0"));

        // Generated credentials are never regenerated: engines keep working after a repair.
        assertThat(kube.secrets().inNamespace(ns).withName("cat-root-principal").get().getData())
                .isEqualTo(principal.getData());
        CatalogLifecycleTest.awaitPhase(ns, "cat", "Ready");
    }

    @Test
    void objectsLeftByAnInterruptedPassConvergeWithoutDuplicates() {
        // As if a previous pass had crashed after creating these, with stale content.
        Map<String, String> labels = Map.of("app.kubernetes.io/name", "polaris", "app.kubernetes.io/instance", "cat",
                "app.kubernetes.io/component", "server", "app.kubernetes.io/managed-by", "catalog-service",
                "app.kubernetes.io/part-of", "lakehouse", "lakehouse.io/kind", "iceberg-catalog");
        kube.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("cat-instance")
                .withLabels(labels).endMetadata().addToData("stale", "true").build()).create();
        kube.apps().deployments().inNamespace(ns).resource(new DeploymentBuilder().withNewMetadata().withName("cat")
                .withLabels(labels).endMetadata().withNewSpec().withReplicas(3).withNewSelector()
                .addToMatchLabels("app.kubernetes.io/instance", "cat").endSelector().withNewTemplate().withNewMetadata()
                .addToLabels("app.kubernetes.io/instance", "cat").endMetadata().withNewSpec().addNewContainer()
                .withName("polaris").withImage("old").endContainer().endSpec().endTemplate().endSpec().build()).create();

        asAdmin().body(Api.catalogRequest("cat", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        CatalogLifecycleTest.awaitPhase(ns, "cat", "Ready");
        assertThat(kube.apps().deployments().inNamespace(ns).list().getItems()).hasSize(1);
        Deployment d = kube.apps().deployments().inNamespace(ns).withName("cat").get();
        assertThat(d.getSpec().getReplicas()).isEqualTo(1);
        assertThat(image(ns, "cat")).isEqualTo("apache/polaris:1.7.0");
        assertThat(kube.configMaps().inNamespace(ns).withName("cat-instance").get().getData()).containsEntry("kind",
                "iceberg-catalog");
    }

    @Test
    void aFailedTaskShowsAsFailedWithItsReason() {
        ClusterSimulation.of(kube).failJobsNamed(n -> n.equals("broken-realm-init"));
        asAdmin().body(Api.catalogRequest("broken", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        CatalogLifecycleTest.awaitPhase(ns, "broken", "Failed");
        var status = asAdmin().get(catalogs(ns) + "/broken").jsonPath();
        assertThat(status.getString("status.conditions.find { it.type == 'RealmInitialized' }.reason"))
                .isEqualTo("RealmInitFailed");
        assertThat(status.getString("status.conditions.find { it.type == 'Ready' }.status")).isEqualTo("False");
    }

    private String image(String ns, String name) {
        return kube.apps().deployments().inNamespace(ns).withName(name).get().getSpec().getTemplate().getSpec()
                .getContainers().get(0).getImage();
    }
}
