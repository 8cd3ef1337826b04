package io.lakehouse.notebooks.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.notebooks.it.Api.instances;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The users' volumes when a hub goes: kept unless the caller asks, and then only the hub's own
 * ({@code claim-<hub>-<user>} made by its KubeSpawner), nothing else in the namespace or elsewhere.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class JupyterHubUserVolumesTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);
    private static final String VOLUMES = "status.conditions.find { it.type == 'UserVolumes' }";

    @Inject
    KubernetesClient kube;

    @BeforeEach
    void simulate() {
        ClusterSimulation.of(kube);
    }

    @Test
    void aDeletedHubKeepsItsUsersVolumesByDefault() {
        String ns = Callers.freshNamespace();
        hub(ns, "nb");
        userVolume(ns, "claim-nb-bob", "nb");

        Response deleting = asAdmin().delete(hubs(ns) + "/nb");

        assertThat(deleting.statusCode()).isEqualTo(202);
        assertThat(deleting.jsonPath().getString(VOLUMES + ".reason")).isEqualTo("Kept");
        assertThat(deleting.jsonPath().getString(VOLUMES + ".message")).contains("?removeUserVolumes=true");
        await().atMost(CONVERGE).until(() -> asAdmin().get(hubs(ns) + "/nb").statusCode() == 404);
        assertThat(kube.persistentVolumeClaims().inNamespace(ns).withName("claim-nb-bob").get()).isNotNull();
    }

    @Test
    void removeUserVolumesDeletesTheHubsVolumesOnlyAndABadValueChangesNothing() {
        String ns = Callers.freshNamespace();
        String elsewhere = Callers.freshNamespace();
        hub(ns, "nb");
        userVolume(ns, "claim-nb-bob", "nb");
        userVolume(ns, "claim-nb-carol", "nb");
        // Kept from an earlier hub 'nb-old': its names start with claim-nb- too.
        userVolume(ns, "claim-nb-old-bob", "nb-old");
        volume(ns, "data", Map.of());
        // The same hub name in another namespace, with its own user.
        hub(elsewhere, "nb");
        userVolume(elsewhere, "claim-nb-bob", "nb");

        Response bad = asAdmin().delete(hubs(ns) + "/nb?removeUserVolumes=yes");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.jsonPath().getString("detail")).isEqualTo("removeUserVolumes must be true or false");
        assertThat(asAdmin().get(hubs(ns) + "/nb").jsonPath().getString("status.phase")).isNotEqualTo("Deleting");
        assertThat(claims(ns)).contains("claim-nb-bob", "claim-nb-carol");
        // A caller without a role in the namespace removes nothing.
        Callers.as("nobody").delete(hubs(ns) + "/nb?removeUserVolumes=true").then().statusCode(403);
        assertThat(claims(ns)).contains("claim-nb-bob", "claim-nb-carol");

        Response deleting = asAdmin().delete(hubs(ns) + "/nb?removeUserVolumes=true");

        assertThat(deleting.statusCode()).isEqualTo(202);
        assertThat(deleting.jsonPath().getString("status.phase")).isEqualTo("Deleting");
        assertThat(deleting.jsonPath().getString(VOLUMES + ".reason")).isEqualTo("Removed");
        assertThat(deleting.jsonPath().getString(VOLUMES + ".message"))
                .isEqualTo("removeUserVolumes: 2 user volume(s) deleted: claim-nb-bob, claim-nb-carol");
        await().atMost(CONVERGE).until(() -> asAdmin().get(hubs(ns) + "/nb").statusCode() == 404);
        assertThat(claims(ns)).doesNotContain("claim-nb-bob", "claim-nb-carol").contains("claim-nb-old-bob", "data");
        assertThat(claims(elsewhere)).contains("claim-nb-bob");
        assertThat(asAdmin().get(hubs(elsewhere) + "/nb").statusCode()).isEqualTo(200);
    }

    private void hub(String ns, String name) {
        asAdmin().body("{\"name\": \"" + name + "\", \"spec\": {}}").post(hubs(ns)).then().statusCode(201);
    }

    /** A user's volume as the hub's KubeSpawner makes it (its common labels). */
    private void userVolume(String ns, String name, String hub) {
        volume(ns, name, Map.of("app.kubernetes.io/instance", hub, "lakehouse.io/kind", "jupyterhub",
                "app.kubernetes.io/managed-by", "kubespawner", "app.kubernetes.io/name", "jupyterhub",
                "app.kubernetes.io/part-of", "lakehouse"));
    }

    private void volume(String ns, String name, Map<String, String> labels) {
        kube.persistentVolumeClaims().inNamespace(ns).resource(new PersistentVolumeClaimBuilder()
                .withNewMetadata().withName(name).withLabels(new HashMap<>(labels)).endMetadata()
                .withNewSpec().withAccessModes("ReadWriteOnce")
                .withNewResources().withRequests(Map.of("storage", new Quantity("10Gi"))).endResources().endSpec()
                .build()).create();
    }

    private List<String> claims(String ns) {
        return kube.persistentVolumeClaims().inNamespace(ns).list().getItems().stream()
                .map(pvc -> pvc.getMetadata().getName()).toList();
    }

    private static String hubs(String ns) {
        return instances(ns, "jupyterhub");
    }
}
