package io.lakehouse.notebooks.unit.jupyterhub;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.notebooks.kinds.jupyterhub.Bindings;
import io.lakehouse.notebooks.kinds.jupyterhub.HubInstance;
import io.lakehouse.notebooks.kinds.jupyterhub.JupyterHubKind;
import io.lakehouse.notebooks.kinds.jupyterhub.JupyterHubSpec;
import io.lakehouse.notebooks.kinds.jupyterhub.LakehouseRefs;
import io.lakehouse.notebooks.kinds.jupyterhub.PerUserSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JupyterHubKindTest {

    private static final HubInstance HUB = HubFixtures.wired();

    private static List<HasMetadata> all() {
        List<HasMetadata> objects = new ArrayList<>(JupyterHubKind.objects(HUB, HubFixtures.productionContext(),
                HubFixtures.wiredBindings(), HubFixtures.owner()));
        objects.addAll(JupyterHubKind.accessObjects(HUB, List.of(), HubFixtures.context(), HubFixtures.owner()));
        objects.add(JupyterHubKind.generatedSecret(HUB, HubFixtures.context(), HubFixtures.owner()));
        return objects;
    }

    @Test
    void theDefaultsAreTheSeeds() {
        assertThat(HubFixtures.defaults().spec()).isEqualTo(new JupyterHubSpec("ds/jupyter-datastack", "2026.11",
                new PerUserSpec("1", "2Gi", "10Gi"), LakehouseRefs.NONE, null));
    }

    @Test
    void everyObjectIsNamedAfterTheInstanceNeverWithTheChartsFixedNames() {
        assertThat(all()).allSatisfy(o -> assertThat(o.getMetadata().getName())
                .matches("notebooks(-.+)?")
                .isNotIn("hub", "proxy-public", "proxy-api", "hub-db-dir"));
        assertThat(all().stream().map(o -> o.getKind() + "/" + o.getMetadata().getName()).distinct().count())
                .isEqualTo(all().size());
    }

    @Test
    void everyContainerHasRequestsAndLimits() {
        List<Container> containers = all().stream().filter(Deployment.class::isInstance).map(Deployment.class::cast)
                .flatMap(d -> d.getSpec().getTemplate().getSpec().getContainers().stream()).toList();
        assertThat(containers).hasSize(2).allSatisfy(c -> {
            assertThat(c.getResources().getRequests()).containsKeys("cpu", "memory");
            assertThat(c.getResources().getLimits()).containsKeys("cpu", "memory");
            assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        });
    }

    @Test
    void theHubMayOnlyStartAndStopUserPodsAndMakeTheirVolumes() {
        Role role = all().stream().filter(Role.class::isInstance).map(Role.class::cast).findFirst().orElseThrow();
        assertThat(role.getRules()).extracting(r -> r.getResources() + " " + r.getVerbs()).containsExactly(
                "[pods] [get, list, watch, create, delete]",
                "[persistentvolumeclaims] [get, create]",
                "[events] [get, list, watch]");
    }

    @Test
    void theHubReadsEverySecretValueFromSecretsNeverFromItsConfig() {
        Deployment hub = all().stream().filter(Deployment.class::isInstance).map(Deployment.class::cast)
                .filter(d -> d.getMetadata().getName().equals("notebooks-hub")).findFirst().orElseThrow();
        // The CA bundle's file paths (production has one) are plain values, no secret.
        assertThat(hub.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .filteredOn(e -> !e.getName().endsWith("CA_BUNDLE") && !e.getName().equals("SSL_CERT_FILE"))
                .allSatisfy(e -> assertThat(e.getValueFrom().getSecretKeyRef()).isNotNull())
                .extracting(e -> e.getName() + "=" + e.getValueFrom().getSecretKeyRef().getName() + "/"
                        + e.getValueFrom().getSecretKeyRef().getKey())
                .containsExactly("OIDC_ISSUER=notebooks-oidc/issuer", "OAUTH_CLIENT_ID=notebooks-oidc/clientId",
                        "OAUTH_CLIENT_SECRET=notebooks-oidc/clientSecret",
                        "JPY_COOKIE_SECRET=notebooks-hub-secret/cookie-secret",
                        "CONFIGPROXY_AUTH_TOKEN=notebooks-hub-secret/proxy-token");
    }

    @Test
    void theGeneratedSecretIsRandomEachTime() {
        Secret one = JupyterHubKind.generatedSecret(HUB, HubFixtures.context(), HubFixtures.owner());
        Secret two = JupyterHubKind.generatedSecret(HUB, HubFixtures.context(), HubFixtures.owner());
        assertThat(one.getData()).containsOnlyKeys("cookie-secret", "proxy-token");
        assertThat(one.getData()).isNotEqualTo(two.getData());
        assertThat(one.getMetadata().getLabels()).as("the hub's alone: out of the other services' caches")
                .containsEntry(Labels.PRIVATE, "true");
    }

    @Test
    void aNewBindingRestartsTheHubAndNothingElse() {
        List<HasMetadata> before = JupyterHubKind.objects(HUB, HubFixtures.context(), Bindings.NONE, HubFixtures.owner());
        List<HasMetadata> after = JupyterHubKind.objects(HUB, HubFixtures.context(), HubFixtures.wiredBindings(),
                HubFixtures.owner());
        List<String> changed = new ArrayList<>();
        for (int i = 0; i < before.size(); i++) {
            if (!before.get(i).equals(after.get(i))) {
                changed.add(before.get(i).getKind() + "/" + before.get(i).getMetadata().getName());
            }
        }
        assertThat(changed).containsExactly("ConfigMap/notebooks-hub-config", "Deployment/notebooks-hub");
    }

    @Test
    void partsAndEndpoints() {
        assertThat(JupyterHubKind.parts(HUB)).extracting(p -> p.deployment() + ":" + p.condition())
                .containsExactly("notebooks-hub:HubReady", "notebooks-proxy:ProxyReady");
        assertThat(JupyterHubKind.endpoints(HUB, HubFixtures.context())).isEqualTo(Map.of(
                "internal", "http://notebooks.team-a.svc:8000",
                "public", "https://notebooks-team-a.lakehouse.example.org/"));
        assertThat(JupyterHubKind.userObjectLabels(HUB)).containsEntry("app.kubernetes.io/instance", "notebooks")
                .containsEntry("app.kubernetes.io/managed-by", "kubespawner");
    }
}
