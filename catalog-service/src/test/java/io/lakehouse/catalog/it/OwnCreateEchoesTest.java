package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogRequest;
import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.TracingOn;
import io.lakehouse.local.ClusterSimulator;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The watch events of a pass's own creates (their echoes) queue no pass: the pass saw what it created. Before, every
 * new instance was reconciled once more for them, building and comparing every object to find nothing new (one
 * catalog in four took 4 passes instead of 3 in the test suite's logs). Passes are counted per instance by their
 * spans (the in-memory exporter of {@link TraceContextTest.Spans}, tracing on for this profile).
 */
@QuarkusTest
@TestProfile(TracingOn.class)
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class OwnCreateEchoesTest {

    private static final Duration PROPAGATION = Duration.ofSeconds(30);
    private static final AttributeKey<String> KEY = AttributeKey.stringKey("lakehouse.key");

    @Inject
    KubernetesClient kube;

    @Inject
    InMemorySpanExporter spans;

    @Test
    void theEchoesOfANewCatalogsCreatesQueueNoSecondPass() {
        // The simulated operators pause: nothing but the pass itself touches the catalog's objects.
        ClusterSimulator operators = ClusterSimulation.of(kube);
        operators.pause();
        try {
            String ns = Callers.freshNamespace();
            asAdmin().body(catalogRequest("cat", "k").toString()).post(catalogs(ns)).then().statusCode(201);
            // The pass created them all (the network policy comes last) and their watch events arrive meanwhile.
            await().atMost(PROPAGATION).until(() -> passes(ns + "/cat") >= 1
                    && !kube.network().networkPolicies().inNamespace(ns).list().getItems().isEmpty());
            await().during(Duration.ofSeconds(5)).atMost(PROPAGATION).until(() -> passes(ns + "/cat") == 1);
            assertThat(kube.apps().deployments().inNamespace(ns).withName("cat").get()).isNotNull();
        } finally {
            operators.resume();
        }
    }

    private long passes(String key) {
        return spans.getFinishedSpanItems().stream().filter(s -> s.getName().equals("reconcile pass"))
                .filter(s -> key.equals(s.getAttributes().get(KEY))).count();
    }
}
