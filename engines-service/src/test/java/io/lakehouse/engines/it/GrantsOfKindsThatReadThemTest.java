package io.lakehouse.engines.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.engines.it.Api.instances;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.instances.InstanceStore;
import io.lakehouse.common.instances.PassDependencies;
import io.lakehouse.common.security.Subject;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventWriter;
import io.lakehouse.common.testing.StatementWrites;
import io.lakehouse.engines.reconcile.EngineDependencies;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Only the kinds whose objects are generated from grants keep them (Trino's access rules): a grant on an instance of
 * another kind writes no row here, so its table's trigger wakes no pass (each deployer's grant of a new MLflow woke one
 * that had nothing to do). The grant event and the OIDC client event after it share the instance's partition: once the
 * client is recorded, the grant was consumed.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class GrantsOfKindsThatReadThemTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    @Inject
    InstanceStore store;

    @Inject
    EngineDependencies dependencies;

    StatementWrites writes;

    @BeforeEach
    void seeWrites() {
        ClusterSimulation.of(kube);
        writes = new StatementWrites(pool).watch("inbox", "INSERT", "NEW.event_id::text");
    }

    @AfterEach
    void dropTriggers() {
        writes.close();
    }

    @Test
    void aGrantOnANifiWritesNothingAndATrinosIsKept() {
        String ns = Api.namespaceWithTrino(kube);
        asAdmin().body("{\"name\":\"flows\",\"spec\":{}}").post(instances(ns, "nifi")).then().statusCode(201);

        LakehouseEvent onNifi = grantAdded(ns, "nifi", "flows", "mallory");
        LakehouseEvent onTrino = grantAdded(ns, "trino", "sql", "alice");
        try (EventWriter writer = new EventWriter()) {
            writer.send(onNifi);
            writer.send(onTrino);
        }
        Api.oidcClientReady(kube, ns, "nifi", "flows");
        await().atMost(CONVERGE).until(() -> read(ns, "flows").oidcClientReady()
                && !read(ns, "sql").granted().subjects().isEmpty());

        assertThat(read(ns, "sql").granted().subjects()).containsExactly(new Subject(Subject.Type.USER, "alice"));
        assertThat(writes.written("inbox")).as("the trino's grant applied once, the nifi's not at all")
                .contains(onTrino.id().toString()).doesNotContain(onNifi.id().toString());
        assertThat(read(ns, "flows").granted().subjects()).as("a nifi's objects read no grants").isEmpty();
    }

    private static LakehouseEvent grantAdded(String ns, String kind, String name, String user) {
        return LakehouseEvent.of("/lakehouse/access-service", EventType.GRANT_ADDED,
                LakehouseEvent.instanceSubject(ns, kind, name), new ObjectMapper().createObjectNode()
                        .put("namespace", ns).put("kind", kind).put("name", name).put("subjectType", "user")
                        .put("subject", user));
    }

    private PassDependencies read(String ns, String name) {
        return store.findForPass(ns, name, dependencies).await().indefinitely().dependencies();
    }
}
