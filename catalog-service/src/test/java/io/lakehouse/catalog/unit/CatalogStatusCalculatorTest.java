package io.lakehouse.catalog.unit;

import static io.lakehouse.catalog.reconcile.CatalogStatusCalculator.CATALOG_CREATED;
import static io.lakehouse.catalog.reconcile.CatalogStatusCalculator.DATABASE_READY;
import static io.lakehouse.catalog.reconcile.CatalogStatusCalculator.READY;
import static io.lakehouse.catalog.reconcile.CatalogStatusCalculator.REALM_INITIALIZED;
import static io.lakehouse.catalog.reconcile.CatalogStatusCalculator.SERVER_READY;
import static io.lakehouse.catalog.unit.Fixtures.database;
import static io.lakehouse.catalog.unit.Fixtures.databaseWithUid;
import static io.lakehouse.catalog.unit.Fixtures.healthyDatabase;
import static io.lakehouse.catalog.unit.Fixtures.server;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.lakehouse.catalog.reconcile.CatalogStatusCalculator.Result;
import io.lakehouse.catalog.reconcile.CatalogStatusCalculator;
import io.lakehouse.catalog.reconcile.Observed;
import io.lakehouse.common.instances.Phase;
import io.lakehouse.common.kube.Condition;
import io.lakehouse.common.kube.Conditions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Phase and conditions of a catalog from what its workloads show. */
class CatalogStatusCalculatorTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant T1 = Instant.parse("2026-01-01T10:01:00Z");
    private static final Instant T2 = Instant.parse("2026-01-01T10:02:00Z");
    private static final Instant T3 = Instant.parse("2026-01-01T10:03:00Z");

    // --- what Kubernetes shows ---

    private static Job runningJob() {
        return new JobBuilder().withNewMetadata().withName("job").endMetadata()
                .withNewStatus().withActive(1).endStatus().build();
    }

    private static Job completeJob() {
        return new JobBuilder().withNewMetadata().withName("job").endMetadata()
                .withNewStatus().withSucceeded(1)
                    .withConditions(new JobConditionBuilder().withType("Complete").withStatus("True").build())
                .endStatus().build();
    }

    private static Job failedJob() {
        return new JobBuilder().withNewMetadata().withName("job").endMetadata()
                .withNewStatus().withFailed(7)
                    .withConditions(new JobConditionBuilder().withType("Failed").withStatus("True")
                            .withReason("BackoffLimitExceeded").withMessage("Job has reached the specified backoff limit")
                            .build())
                .endStatus().build();
    }

    private static final Observed NOTHING = new Observed(null, null, null, null);
    private static final Observed STARTING = new Observed(database("Setting up primary", 0), server(0), null, null);
    private static final Observed UP_NO_TASKS = new Observed(healthyDatabase(), server(1), null, null);
    private static final Observed REALM_RUNNING = new Observed(healthyDatabase(), server(1), runningJob(), null);
    private static final Observed ALL_DONE = new Observed(healthyDatabase(), server(1), completeJob(), completeJob());

    private static Result compute(Observed observed, Result previous, Instant now) {
        return CatalogStatusCalculator.compute(observed, previous == null ? List.of() : previous.conditions(),
                previous == null ? Phase.Pending : previous.phase(), 1, now);
    }

    private static Result compute(Observed observed) {
        return compute(observed, null, T0);
    }

    private static Condition condition(Result r, String type) {
        return Conditions.find(r.conditions(), type).orElseThrow(() -> new AssertionError("no condition " + type));
    }

    // --- phases ---

    @Test
    void withNothingCreatedYetTheInstanceIsDeploying() {
        Result r = compute(NOTHING);
        assertThat(r.phase()).isEqualTo(Phase.Deploying);
        assertThat(r.conditions()).extracting(Condition::type)
                .containsExactly(DATABASE_READY, SERVER_READY, REALM_INITIALIZED, CATALOG_CREATED, READY);
        assertThat(r.conditions()).allSatisfy(c -> assertThat(c.status()).isEqualTo(Condition.FALSE));
        assertThat(condition(r, DATABASE_READY).reason()).isEqualTo("DatabaseMissing");
        assertThat(condition(r, REALM_INITIALIZED).reason()).isEqualTo("WaitingForDatabase");
        assertThat(condition(r, CATALOG_CREATED).reason()).isEqualTo("WaitingForRealm");
    }

    @Test
    void whileCnpgSetsUpThePrimaryTheDatabaseIsNotReadyAndSaysWhy() {
        Result r = compute(STARTING);
        assertThat(r.phase()).isEqualTo(Phase.Deploying);
        assertThat(condition(r, DATABASE_READY).reason()).isEqualTo("DatabaseStarting");
        assertThat(condition(r, DATABASE_READY).message()).contains("Setting up primary");
        assertThat(condition(r, SERVER_READY).reason()).isEqualTo("ServerStarting");
    }

    @Test
    void aHealthyPhaseWithoutReadyInstanceIsNotReady() {
        Result r = compute(new Observed(database("Cluster in healthy state", 0), server(1), null, null));
        assertThat(condition(r, DATABASE_READY).isTrue()).isFalse();
    }

    @Test
    void theDatabaseAloneUpIsStillDeployingButRealmInitializationCanStart() {
        Result r = compute(new Observed(healthyDatabase(), server(0), null, null));
        assertThat(r.phase()).isEqualTo(Phase.Deploying);
        assertThat(condition(r, DATABASE_READY).isTrue()).isTrue();
        assertThat(condition(r, REALM_INITIALIZED).reason()).isEqualTo("InitializingRealm");
    }

    @Test
    void databaseAndServerUpMakeItRunningButNotReady() {
        Result r = compute(UP_NO_TASKS);
        assertThat(r.phase()).isEqualTo(Phase.Running);
        assertThat(condition(r, READY).isTrue()).isFalse();
        assertThat(condition(r, READY).reason()).isEqualTo("NotReady");
        assertThat(condition(r, READY).message()).startsWith(REALM_INITIALIZED);
    }

    @Test
    void aRunningRealmTaskKeepsItRunning() {
        Result r = compute(REALM_RUNNING);
        assertThat(r.phase()).isEqualTo(Phase.Running);
        assertThat(condition(r, REALM_INITIALIZED).reason()).isEqualTo("InitializingRealm");
        assertThat(condition(r, CATALOG_CREATED).reason()).isEqualTo("WaitingForRealm");
    }

    @Test
    void catalogCreationWaitsForTheServerOnceTheRealmIsInitialized() {
        Result r = compute(new Observed(healthyDatabase(), server(0), completeJob(), null));
        assertThat(condition(r, REALM_INITIALIZED).isTrue()).isTrue();
        assertThat(condition(r, CATALOG_CREATED).reason()).isEqualTo("WaitingForServer");
    }

    @Test
    void bothTasksDoneMakeItReady() {
        Result r = compute(ALL_DONE);
        assertThat(r.phase()).isEqualTo(Phase.Ready);
        assertThat(r.conditions()).allSatisfy(c -> assertThat(c.status()).as(c.type()).isEqualTo(Condition.TRUE));
        assertThat(condition(r, READY).reason()).isEqualTo("CatalogUsable");
        assertThat(condition(r, REALM_INITIALIZED).reason()).isEqualTo("RealmBootstrapped");
        assertThat(condition(r, CATALOG_CREATED).reason()).isEqualTo("CatalogCreated");
    }

    @Test
    void aJobThatSucceededWithoutItsCompleteConditionYetCountsAsDone() {
        Job succeeded = new JobBuilder().withNewMetadata().withName("j").endMetadata()
                .withNewStatus().withSucceeded(1).endStatus().build();
        assertThat(compute(new Observed(healthyDatabase(), server(1), succeeded, succeeded)).phase())
                .isEqualTo(Phase.Ready);
    }

    @Test
    void theFullLifecycleGoesDeployingRunningReady() {
        Result deploying = compute(STARTING, null, T0);
        Result running = compute(UP_NO_TASKS, deploying, T1);
        Result realm = compute(REALM_RUNNING, running, T2);
        Result ready = compute(ALL_DONE, realm, T3);
        assertThat(List.of(deploying.phase(), running.phase(), realm.phase(), ready.phase()))
                .containsExactly(Phase.Deploying, Phase.Running, Phase.Running, Phase.Ready);
        assertThat(condition(ready, DATABASE_READY).lastTransitionTime()).isEqualTo(T1);
        assertThat(condition(ready, READY).lastTransitionTime()).isEqualTo(T3);
    }

    // --- failures ---

    @Test
    void aFailedRealmTaskMakesItFailedWithTheJobsReason() {
        Result r = compute(new Observed(healthyDatabase(), server(1), failedJob(), null));
        assertThat(r.phase()).isEqualTo(Phase.Failed);
        Condition realm = condition(r, REALM_INITIALIZED);
        assertThat(realm.reason()).isEqualTo("RealmInitFailed");
        assertThat(realm.message()).contains("BackoffLimitExceeded").contains("backoff limit");
        assertThat(condition(r, READY).reason()).isEqualTo("TaskFailed");
        assertThat(condition(r, READY).message()).contains(REALM_INITIALIZED);
    }

    @Test
    void aFailedCatalogTaskMakesItFailedWithTheJobsReason() {
        Result r = compute(new Observed(healthyDatabase(), server(1), completeJob(), failedJob()));
        assertThat(r.phase()).isEqualTo(Phase.Failed);
        assertThat(condition(r, CATALOG_CREATED).reason()).isEqualTo("CatalogCreationFailed");
        assertThat(condition(r, CATALOG_CREATED).message()).contains("BackoffLimitExceeded");
    }

    // --- after Ready ---

    @Test
    void losingTheServerAfterReadyMakesItDegraded() {
        Result ready = compute(ALL_DONE, null, T0);
        Result degraded = compute(new Observed(healthyDatabase(), server(0), completeJob(), completeJob()), ready, T1);
        assertThat(degraded.phase()).isEqualTo(Phase.Degraded);
        assertThat(condition(degraded, SERVER_READY).isTrue()).isFalse();
        assertThat(condition(degraded, READY).isTrue()).isFalse();
        assertThat(condition(degraded, READY).lastTransitionTime()).isEqualTo(T1);
    }

    @Test
    void losingTheDatabaseAfterReadyMakesItDegraded() {
        Result ready = compute(ALL_DONE, null, T0);
        Result degraded = compute(new Observed(database("Failing over", 0), server(1), null, null), ready, T1);
        assertThat(degraded.phase()).isEqualTo(Phase.Degraded);
    }

    @Test
    void aDegradedInstanceStaysDegradedUntilUsableAgainThenIsReady() {
        Result ready = compute(ALL_DONE, null, T0);
        Result degraded = compute(new Observed(healthyDatabase(), server(0), null, null), ready, T1);
        Result stillDegraded = compute(new Observed(healthyDatabase(), server(0), null, null), degraded, T2);
        Result back = compute(new Observed(healthyDatabase(), server(1), null, null), stillDegraded, T3);
        assertThat(stillDegraded.phase()).isEqualTo(Phase.Degraded);
        assertThat(back.phase()).isEqualTo(Phase.Ready);
        assertThat(condition(back, READY).lastTransitionTime()).isEqualTo(T3);
    }

    @Test
    void tasksStayDoneWhenTheirJobsAreCleanedUp() {
        Result ready = compute(ALL_DONE, null, T0);
        Result later = compute(UP_NO_TASKS, ready, T1);
        assertThat(later.phase()).isEqualTo(Phase.Ready);
        assertThat(condition(later, REALM_INITIALIZED).isTrue()).isTrue();
        assertThat(condition(later, CATALOG_CREATED).isTrue()).isTrue();
        assertThat(condition(later, REALM_INITIALIZED).lastTransitionTime()).isEqualTo(T0);
        assertThat(condition(later, CATALOG_CREATED).lastTransitionTime()).isEqualTo(T0);
    }

    @Test
    void tasksStayDoneEvenIfAJobLaterShowsAsFailed() {
        Result ready = compute(ALL_DONE, null, T0);
        Result later = compute(new Observed(healthyDatabase(), server(1), failedJob(), failedJob()), ready, T1);
        assertThat(later.phase()).isEqualTo(Phase.Ready);
    }

    /**
     * Fails today: a task condition kept True once its Job is gone is the previous condition object,
     * so its observedGeneration stays the generation it was first computed at. After a capacity patch
     * (generation 2) RealmInitialized and CatalogCreated still say observedGeneration 1 forever, which
     * by the Kubernetes convention means "not evaluated for the current spec". Suggested fix in
     * CatalogStatusCalculator.sticky: keep type/status/reason/message but stamp the current generation.
     */
    @Test
    void conditionsKeptTrueAreStampedWithTheCurrentGeneration() {
        Result ready = CatalogStatusCalculator.compute(ALL_DONE, List.of(), Phase.Pending, 1, T0);
        Result afterPatch = CatalogStatusCalculator.compute(UP_NO_TASKS, ready.conditions(), ready.phase(), 2, T1);
        assertThat(afterPatch.conditions()).allSatisfy(
                c -> assertThat(c.observedGeneration()).as(c.type()).isEqualTo(2));
    }

    // --- condition semantics ---

    @Test
    void anUnchangedObservationGivesEqualConditionsSoNothingIsSaved() {
        Result first = compute(UP_NO_TASKS, null, T0);
        Result second = compute(UP_NO_TASKS, first, T1);
        assertThat(second.phase()).isEqualTo(first.phase());
        assertThat(second.conditions()).isEqualTo(first.conditions());
        assertThat(second.conditions()).allSatisfy(c -> assertThat(c.lastTransitionTime()).isEqualTo(T0));
    }

    @Test
    void onlyConditionsThatFlipGetANewTransitionTime() {
        Result first = compute(STARTING, null, T0);
        Result second = compute(new Observed(healthyDatabase(), server(0), null, null), first, T1);
        assertThat(condition(second, DATABASE_READY).lastTransitionTime()).isEqualTo(T1);
        assertThat(condition(second, SERVER_READY).lastTransitionTime()).isEqualTo(T0);
        assertThat(condition(second, REALM_INITIALIZED).lastTransitionTime())
                .as("reason changed, status did not").isEqualTo(T0);
    }

    @Test
    void everyConditionCarriesTheGenerationItWasComputedFrom() {
        Result r = CatalogStatusCalculator.compute(UP_NO_TASKS, List.of(), Phase.Pending, 7, T0);
        assertThat(r.conditions()).allSatisfy(c -> assertThat(c.observedGeneration()).isEqualTo(7));
    }

    @Test
    void everyConditionHasAReasonAndAMessage() {
        for (Observed o : List.of(NOTHING, STARTING, UP_NO_TASKS, REALM_RUNNING, ALL_DONE)) {
            assertThat(compute(o).conditions()).allSatisfy(c -> {
                assertThat(c.reason()).as(c.type()).matches("[A-Z][A-Za-z]*");
                assertThat(c.message()).as(c.type()).isNotBlank();
            });
        }
    }

    // --- a recreated database ---

    private static Job realmDoneOn(String databaseUid) {
        Job job = completeJob();
        job.getMetadata().setAnnotations(Map.of(io.lakehouse.catalog.reconcile.CatalogTasks.DATABASE_UID, databaseUid));
        return job;
    }

    @Test
    void theRealmConditionNamesTheDatabaseItWasInitializedIn() {
        Result r = compute(new Observed(databaseWithUid("db-1"), server(1), realmDoneOn("db-1"), completeJob()));
        assertThat(r.phase()).isEqualTo(Phase.Ready);
        assertThat(condition(r, REALM_INITIALIZED).message()).isEqualTo("done on database db-1");
    }

    @Test
    void aRecreatedDatabaseResetsTheStickyTasksAndDegradesTheCatalog() {
        Result ready = compute(new Observed(databaseWithUid("db-1"), server(1), realmDoneOn("db-1"), completeJob()));
        // The Jobs are gone (TTL) and the cluster was deleted and made again: same name, new uid.
        Result r = compute(new Observed(databaseWithUid("db-2"), server(1), null, null), ready, T1);
        assertThat(condition(r, REALM_INITIALIZED).isTrue()).isFalse();
        assertThat(condition(r, REALM_INITIALIZED).reason()).isEqualTo(CatalogStatusCalculator.DATABASE_REPLACED);
        assertThat(condition(r, CATALOG_CREATED).isTrue()).isFalse();
        assertThat(condition(r, CATALOG_CREATED).reason()).isEqualTo("WaitingForRealm");
        assertThat(r.phase()).isEqualTo(Phase.Degraded);
        // A realm Job of the old database still around does not count for the new one.
        Result stale = compute(new Observed(databaseWithUid("db-2"), server(1), realmDoneOn("db-1"), completeJob()), r,
                T2);
        assertThat(condition(stale, REALM_INITIALIZED).reason()).isEqualTo(CatalogStatusCalculator.DATABASE_REPLACED);
        // Initialized again on the new one: usable again.
        Result again = compute(new Observed(databaseWithUid("db-2"), server(1), realmDoneOn("db-2"), completeJob()),
                stale, T3);
        assertThat(again.phase()).isEqualTo(Phase.Ready);
        assertThat(condition(again, REALM_INITIALIZED).message()).isEqualTo("done on database db-2");
    }

    @Test
    void aRealmDoneBeforeDatabaseUidsWereRecordedIsKept() {
        Result ready = compute(new Observed(databaseWithUid("db-1"), server(1), completeJob(), completeJob()));
        Result r = compute(new Observed(databaseWithUid("db-1"), server(1), null, null), ready, T1);
        assertThat(condition(r, REALM_INITIALIZED).isTrue()).isTrue();
        assertThat(r.phase()).isEqualTo(Phase.Ready);
    }
}
