package io.lakehouse.catalog.unit;

import static io.lakehouse.catalog.unit.Fixtures.databaseWithUid;
import static io.lakehouse.catalog.unit.Fixtures.server;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.lakehouse.catalog.domain.CatalogKind;
import io.lakehouse.catalog.domain.CatalogNames;
import io.lakehouse.catalog.reconcile.CatalogTasks;
import io.lakehouse.common.instances.Gates;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.instances.Progress;
import io.lakehouse.common.kube.ForeignObjectException;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.common.kube.ResourceKind;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The two tasks' Jobs in a pass: created once what they need is there, and left as they are once they exist (a task
 * runs once), unless a Job of that name is not this instance's.
 */
class CatalogTaskJobsTest {

    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instance INSTANCE = Fixtures.withCredentialsSecret();

    private static Job realmInit() {
        return CatalogTasks.realmInit(INSTANCE, Fixtures.context(), Fixtures.owner(), Fixtures.DATABASE_UID);
    }

    private static Job catalogInit() {
        return CatalogTasks.catalogInit(INSTANCE, Fixtures.context(), Fixtures.owner());
    }

    private static Job running(Job job) {
        job.setStatus(new JobStatusBuilder().withActive(1).build());
        return job;
    }

    private static Job complete(Job job) {
        job.setStatus(new JobStatusBuilder().withSucceeded(1)
                .withConditions(new JobConditionBuilder().withType("Complete").withStatus("True").build()).build());
        return job;
    }

    /** The pass's progress with these objects live (null: missing). */
    private static Progress progress(Deployment server, Job realmInit, Job catalogInit) {
        Map<String, HasMetadata> live = new HashMap<>();
        live.put(ResourceKind.CNPG_CLUSTER.key() + "/" + CatalogNames.database(Fixtures.NAME),
                databaseWithUid(Fixtures.DATABASE_UID));
        live.put(ResourceKind.DEPLOYMENT.key() + "/" + CatalogNames.server(Fixtures.NAME), server);
        live.put(ResourceKind.JOB.key() + "/" + CatalogNames.realmInitJob(Fixtures.NAME), realmInit);
        live.put(ResourceKind.JOB.key() + "/" + CatalogNames.catalogInit(Fixtures.NAME), catalogInit);
        return new CatalogKind().progress(INSTANCE, Fixtures.context(), Fixtures.owner(),
                new Gates(null, null, false, false), (kind, name) -> live.get(kind.key() + "/" + name), NOW);
    }

    private static List<String> names(List<HasMetadata> objects) {
        return objects.stream().map(o -> o.getKind() + "/" + o.getMetadata().getName()).toList();
    }

    @Test
    void theRealmTaskIsCreatedOnceTheDatabaseIsReadyAndNotBuiltAgainWhileItRuns() {
        assertThat(names(progress(server(0), null, null).createOnce())).containsExactly("Job/warehouse-realm-init");

        Progress running = progress(server(0), running(realmInit()), null);
        assertThat(running.createOnce()).isEmpty();
        assertThat(running.enforce()).isEmpty();
    }

    @Test
    void theCatalogTaskIsCreatedOnceRealmAndServerAreReadyAndNotBuiltAgainWhileItRuns() {
        Progress first = progress(server(1), complete(realmInit()), null);
        assertThat(names(first.createOnce())).containsExactly("Job/warehouse-catalog-init");
        assertThat(names(first.enforce())).containsExactly("ConfigMap/warehouse-catalog-init");

        Progress running = progress(server(1), complete(realmInit()), running(catalogInit()));
        assertThat(running.createOnce()).isEmpty();
        // Its input is still kept as built while it runs.
        assertThat(running.enforce()).singleElement().isInstanceOf(ConfigMap.class);
    }

    @Test
    void aTaskJobOfTheSameNameThatIsNotTheInstancesStopsThePassAndNamesItsOwner() {
        Job others = running(realmInit());
        others.getMetadata().getLabels().put(Labels.INSTANCE_UID, "00000000-0000-4000-8000-000000000000");

        assertThatThrownBy(() -> progress(server(0), others, null)).isInstanceOf(ForeignObjectException.class)
                .hasMessageContaining("Job 'warehouse-realm-init'")
                .hasMessageContaining("belongs to the iceberg-catalog instance 'warehouse' managed by catalog-service");
    }
}
