package io.lakehouse.engines.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.engines.it.Api.instances;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.InstanceStore;
import io.lakehouse.common.instances.PassDependencies;
import io.lakehouse.common.security.Subject;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventWriter;
import io.lakehouse.engines.reconcile.EngineDependencies;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pass reads its instance's row and everything it gates and builds on in one statement
 * ({@link InstanceStore#findForPass}): the catalog named in {@code spec.catalog}, whether the OIDC client exists, the
 * grants and the members seen in the granted groups, each as the consumers stored them.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class PassReadTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);

    @Inject
    KubernetesClient kube;

    @Inject
    InstanceStore store;

    @Inject
    EngineDependencies dependencies;

    @BeforeEach
    void simulate() {
        ClusterSimulation.of(kube);
    }

    @Test
    void theRowsReadCarryTheCatalogTheOidcClientAndTheGrantsWithTheirGroupsMembers() {
        String ns = Callers.freshNamespace();
        String team = "/team-" + ns;
        Api.bucketSecret(kube, ns, "warehouse-bucket");
        Api.catalogReady(ns, "cat");
        await().atMost(CONVERGE).until(() -> dependencies.catalog(ns, "cat").await().indefinitely().isPresent());
        asAdmin().body("{\"name\":\"sql\",\"spec\":{\"catalog\":\"cat\"}}").post(instances(ns, "trino"))
                .then().statusCode(201);
        asAdmin().body("{\"name\":\"flows\",\"spec\":{}}").post(instances(ns, "nifi")).then().statusCode(201);
        asAdmin().body("{\"name\":\"adhoc\",\"spec\":{\"catalog\":\"cat\"}}").post(instances(ns, "trino"))
                .then().statusCode(201);

        PassDependencies sql = read(ns, "sql");
        assertThat(sql.catalog()).isEqualTo(new CatalogRef(ns, "cat", "lakehouse",
                new StorageSpec("warehouse", "http://minio.storage.svc:9000", "us-east-1", true, "warehouse-bucket",
                        null, null), "Ready", false));
        assertThat(sql.oidcClientReady()).isFalse();
        assertThat(sql.granted().subjects()).isEmpty();
        assertThat(read(ns, "flows").catalog()).as("no spec.catalog").isNull();

        Api.oidcClientReady(kube, ns, "trino", "sql");
        Api.grant(EventType.GRANT_ADDED, ns, "trino", "sql", "group", team);
        Api.grant(EventType.GRANT_ADDED, ns, "trino", "sql", "user", "alice");
        Api.grant(EventType.GRANT_ADDED, ns, "trino", "adhoc", "user", "mallory");
        try (EventWriter writer = new EventWriter()) {
            writer.send(Api.groupsSeen("carol-" + ns, Instant.now(), team));
            writer.send(Api.groupsSeen("bob-" + ns, Instant.now(), team, "/elsewhere"));
            writer.send(Api.groupsSeen("dave-" + ns, Instant.now(), "/elsewhere"));
        }
        await().atMost(CONVERGE).until(() -> read(ns, "sql").oidcClientReady()
                && read(ns, "sql").granted().subjects().size() == 2
                && read(ns, "sql").granted().groupMembers().getOrDefault(team, List.of()).size() == 2);
        PassDependencies granted = read(ns, "sql");
        assertThat(granted.granted().subjects()).as("users first, then groups, each by name").containsExactly(
                new Subject(Subject.Type.USER, "alice"), new Subject(Subject.Type.GROUP, team));
        assertThat(granted.granted().groupMembers()).isEqualTo(Map.of(team, List.of("bob-" + ns, "carol-" + ns)));
        assertThat(read(ns, "flows").oidcClientReady()).as("another instance's client").isFalse();
        await().atMost(CONVERGE).until(() -> !read(ns, "adhoc").granted().subjects().isEmpty());
        assertThat(read(ns, "adhoc").granted().subjects()).as("each instance's own grants")
                .containsExactly(new Subject(Subject.Type.USER, "mallory"));
        assertThat(store.findForPass(ns, "gone", dependencies).await().indefinitely()).isNull();
    }

    private PassDependencies read(String ns, String name) {
        InstanceStore.ForPass read = store.findForPass(ns, name, dependencies).await().indefinitely();
        assertThat(read.instance().name()).isEqualTo(name);
        return read.dependencies();
    }
}
