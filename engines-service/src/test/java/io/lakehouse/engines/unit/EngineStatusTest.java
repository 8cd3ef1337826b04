package io.lakehouse.engines.unit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.instances.Gates;
import io.lakehouse.common.instances.InstanceStatus;
import io.lakehouse.common.instances.Part;
import io.lakehouse.common.instances.Phase;
import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.kube.Conditions;
import io.lakehouse.common.kube.ResourceKind;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EngineStatusTest {

    private static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");
    private static final List<Part> PARTS = List.of(
            Part.of(ResourceKind.DEPLOYMENT, "sql", "CoordinatorReady", "the Trino coordinator"),
            Part.of(ResourceKind.DEPLOYMENT, "sql-worker", "WorkersReady", "the Trino workers"));
    private static final CatalogRef READY_CATALOG = EngineFixtures.catalog();

    private static Deployment deployment(int replicas, Integer available) {
        return new DeploymentBuilder().withNewSpec().withReplicas(replicas).endSpec()
                .withNewStatus().withAvailableReplicas(available).endStatus().build();
    }

    private static InstanceStatus.Result compute(Map<String, HasMetadata> live, Gates gates, Phase previous) {
        return InstanceStatus.compute(PARTS, p -> live.get(p.objectName()), gates, List.of(), previous, 1, NOW);
    }

    @Test
    void withoutItsOidcClientTheInstanceIsPendingAndSaysWhy() {
        InstanceStatus.Result r = compute(Map.of(), new Gates("cat", READY_CATALOG, true, false), Phase.Pending);
        assertThat(r.phase()).isEqualTo(Phase.Pending);
        Condition oidc = Conditions.find(r.conditions(), InstanceStatus.OIDC_CLIENT_READY).orElseThrow();
        assertThat(oidc.reason()).isEqualTo("WaitingForOidcClient");
        assertThat(oidc.message()).contains("access-service");
        assertThat(Conditions.find(r.conditions(), "Ready").orElseThrow().message()).startsWith("OidcClientReady:");
    }

    @Test
    void everyReplicaMustBeAvailableForThePartToBeReady() {
        Gates gates = new Gates("cat", READY_CATALOG, true, true);
        InstanceStatus.Result partly = compute(Map.of("sql", deployment(1, 1), "sql-worker", deployment(3, 2)), gates,
                Phase.Deploying);
        assertThat(partly.phase()).isEqualTo(Phase.Deploying);
        assertThat(Conditions.isTrue(partly.conditions(), "WorkersReady")).isFalse();
        InstanceStatus.Result all = compute(Map.of("sql", deployment(1, 1), "sql-worker", deployment(3, 3)), gates,
                Phase.Deploying);
        assertThat(all.phase()).isEqualTo(Phase.Ready);
        assertThat(all.conditions()).extracting(Condition::type).containsExactly("OidcClientReady", "CatalogReady",
                "CoordinatorReady", "WorkersReady", "Ready");
    }

    @Test
    void podsUpOnACatalogThatIsNotReadyIsRunningNotReady() {
        CatalogRef starting = new CatalogRef("team-a", "cat", "lakehouse", EngineFixtures.bucket(), "Running", false);
        InstanceStatus.Result r = compute(Map.of("sql", deployment(1, 1), "sql-worker", deployment(2, 2)),
                new Gates("cat", starting, true, true), Phase.Deploying);
        assertThat(r.phase()).isEqualTo(Phase.Running);
        assertThat(Conditions.find(r.conditions(), "CatalogReady").orElseThrow().reason()).isEqualTo("CatalogNotReady");
    }

    @Test
    void aReadyInstanceThatLosesAPartIsDegraded() {
        InstanceStatus.Result r = compute(Map.of("sql", deployment(1, 0), "sql-worker", deployment(2, 2)),
                new Gates("cat", READY_CATALOG, true, true), Phase.Ready);
        assertThat(r.phase()).isEqualTo(Phase.Degraded);
        assertThat(compute(Map.of("sql", deployment(1, 1), "sql-worker", deployment(2, 2)),
                new Gates("cat", null, true, true), Phase.Ready).phase()).isEqualTo(Phase.Degraded);
    }
}
