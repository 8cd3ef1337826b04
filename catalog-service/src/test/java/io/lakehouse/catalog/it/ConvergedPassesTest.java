package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogRequest;
import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.catalog.reconcile.CatalogContext;
import io.lakehouse.common.instances.InstanceReconciler;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.ThreadAllocation;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pass over a converged catalog whose inputs did not change (a resync, an event of a dependency that changed
 * nothing) builds nothing: before, each such pass built every object, took their checksums and compared them with the
 * cache (704 KB of allocation per pass); now it reads the row and the dependencies and stops (46 KB). Heap bytes on the calling thread,
 * the same on any machine; measured after warm-up so that the JIT's own allocations stay out.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class ConvergedPassesTest {

    @Inject
    KubernetesClient kube;

    @Inject
    InstanceReconciler<CatalogContext> reconciler;

    @BeforeEach
    void simulate() {
        ClusterSimulation.of(kube);
    }

    @Test
    void aPassOverAConvergedCatalogWhoseInputsDidNotChangeBuildsNothing() {
        String ns = Callers.freshNamespace();
        asAdmin().body(catalogRequest("quiet", "k").toString()).post(catalogs(ns)).then().statusCode(201);
        CatalogLifecycleTest.awaitPhase(ns, "quiet", "Ready");
        String deployment = kube.apps().deployments().inNamespace(ns).withName("quiet").get().getMetadata()
                .getResourceVersion();

        long bytes = ThreadAllocation.perCall(50, () -> assertThat(reconciler.reconcile(ns + "/quiet")).isNull());
        assertThat(bytes).as("heap bytes per pass over a converged catalog").isLessThan(64 * 1024);
        assertThat(asAdmin().get(catalogs(ns) + "/quiet").jsonPath().getString("status.phase")).isEqualTo("Ready");
        assertThat(kube.apps().deployments().inNamespace(ns).withName("quiet").get().getMetadata().getResourceVersion())
                .isEqualTo(deployment);
    }
}
