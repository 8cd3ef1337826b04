package io.lakehouse.notebooks.it;

import static io.lakehouse.common.testing.Callers.as;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.notebooks.it.Api.instances;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Who may do what with a hub, what a patch may change, and drift repair. */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class JupyterHubRolesAndChangesTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);

    @Inject
    KubernetesClient kube;

    @BeforeEach
    void simulate() {
        ClusterSimulation.of(kube);
    }

    /** The whole expectation as one table: role → status of each call (create: a second hub, so 409 once allowed). */
    @Test
    void rolesMatrix() {
        String ns = Callers.freshNamespace();
        String hubs = instances(ns, "jupyterhub");
        asAdmin().body("{\"name\": \"notebooks\", \"spec\": {}}").post(hubs).then().statusCode(201);
        try (EventWriter writer = new EventWriter()) {
            writer.send(Api.memberSet(ns, "user", "vera", "viewer"));
            writer.send(Api.memberSet(ns, "user", "otto", "operator"));
            writer.send(Api.memberSet(ns, "user", "ada", "admin"));
        }
        await().atMost(CONVERGE).until(() -> as("ada").get(hubs).statusCode() == 200);
        Map<String, Function<RequestSpecification, Integer>> calls = new LinkedHashMap<>();
        calls.put("list", r -> r.get(hubs).statusCode());
        calls.put("get", r -> r.get(hubs + "/notebooks").statusCode());
        calls.put("create", r -> r.body("{\"name\": \"other\", \"spec\": {}}").post(hubs).statusCode());
        calls.put("patch", r -> r.contentType("application/merge-patch+json")
                .body("{\"spec\": {\"perUser\": {\"cpu\": \"2\"}}}").patch(hubs + "/notebooks").statusCode());
        Map<String, List<Integer>> actual = new LinkedHashMap<>();
        for (String user : List.of("nobody", "vera", "otto", "ada")) {
            actual.put(user, calls.values().stream().map(call -> call.apply(as(user).contentType("application/json")))
                    .toList());
        }
        assertThat(actual).isEqualTo(Map.of(
                "nobody", List.of(403, 403, 403, 403),
                "vera", List.of(200, 200, 403, 403),
                "otto", List.of(200, 200, 409, 200),
                "ada", List.of(200, 200, 409, 200)));
        as("vera").delete(hubs + "/notebooks").then().statusCode(403);
        as("otto").delete(hubs + "/notebooks").then().statusCode(202);
    }

    @Test
    void aPatchChangesCapacityAndReferencesNeverFixedFieldsAndDriftIsRepaired() {
        String ns = Callers.freshNamespace();
        String hub = instances(ns, "jupyterhub") + "/notebooks";
        asAdmin().body("{\"name\": \"notebooks\", \"spec\": {}}").post(instances(ns, "jupyterhub"))
                .then().statusCode(201);
        Api.oidcClientReady(kube, ns, "jupyterhub", "notebooks");
        await().atMost(CONVERGE).until(() -> config(ns).contains("c.KubeSpawner.cpu_limit = 1\n"));

        asAdmin().contentType("application/merge-patch+json").body("{\"spec\": {\"perUser\": {\"cpu\": \"2\"}}}")
                .patch(hub).then().statusCode(200);
        await().atMost(CONVERGE).until(() -> config(ns).contains("c.KubeSpawner.cpu_limit = 2\n"));
        var fixed = asAdmin().contentType("application/merge-patch+json")
                .body("{\"spec\": {\"image\": \"other/image\"}}").patch(hub);
        assertThat(fixed.statusCode()).isEqualTo(422);
        assertThat(fixed.jsonPath().getList("errors.field")).containsExactly("spec.image");
        var unknown = asAdmin().contentType("application/merge-patch+json")
                .body("{\"spec\": {\"lakehouse\": {\"trino\": \"nowhere\"}}}").patch(hub);
        assertThat(unknown.statusCode()).isEqualTo(422);
        assertThat(asAdmin().get(hub).jsonPath().getString("spec.lakehouse.trino")).isNull();

        // Drift: objects deleted or edited by hand come back.
        await().atMost(CONVERGE).until(() -> kube.apps().deployments().inNamespace(ns).withName("notebooks-hub")
                .get() != null);
        kube.apps().deployments().inNamespace(ns).withName("notebooks-hub").delete();
        kube.rbac().roles().inNamespace(ns).withName("notebooks-hub").edit(r -> {
            r.getRules().get(0).getVerbs().add("patch");
            return r;
        });
        await().atMost(CONVERGE).until(() -> kube.apps().deployments().inNamespace(ns).withName("notebooks-hub")
                .get() != null);
        await().atMost(CONVERGE).until(() -> !kube.rbac().roles().inNamespace(ns).withName("notebooks-hub").get()
                .getRules().get(0).getVerbs().contains("patch"));
    }

    private String config(String ns) {
        var cm = kube.configMaps().inNamespace(ns).withName("notebooks-hub-config").get();
        return cm == null ? "" : cm.getData().get("jupyterhub_config.py");
    }
}
