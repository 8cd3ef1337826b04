package io.lakehouse.sparkjobs.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.sparkjobs.it.Api.jobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.sparkjobs.store.FailingJobStore;
import io.lakehouse.sparkjobs.store.JobStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The tracker's state changes go through one writer: the changes of several jobs that arrive while a transaction
 * runs share the next one, each job's changes and {@code sparkjob.state-changed} events in their order, and a
 * change that cannot be written does not keep the others of its transaction out. The writer is held by a row
 * lock on the real PostgreSQL (its transaction waits for it), so what arrives meanwhile queues up for certain.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = SparkCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class BatchedTrackingTest {

    private static final List<String> RUN = List.of("SUBMITTED", "RUNNING", "COMPLETED");

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    @Inject
    MeterRegistry metrics;

    @Test
    void changesOfJobsArrivingTogetherShareOneTransactionAndKeepTheirOrderAndEvents() {
        String ns = Callers.freshNamespace();
        List<String> burst = List.of("burst-1", "burst-2", "burst-3", "burst-4");
        launch(ns, "held");
        burst.forEach(name -> launch(ns, name));
        try (EventReader events = new EventReader("lakehouse.sparkjobs")) {
            whileWriterHeld(ns, "held", () -> burst.forEach(name -> RUN.forEach(state -> step(ns, name, state))),
                    burst.size() * RUN.size());

            await().atMost(Api.PROPAGATION).until(() -> burst.stream().allMatch(n -> "COMPLETED".equals(state(ns, n))));
            assertThat(state(ns, "held")).isEqualTo("SUBMITTED");
            // Twelve changes of four jobs, queued behind the held transaction, written by the next one: every
            // row carries its id (the relay marks outbox rows, not jobs).
            assertThat(writers(ns, burst)).as("transactions that wrote the burst's rows").isEqualTo(1);
            // Each job's events in its order, none lost.
            await().atMost(Api.PROPAGATION).untilAsserted(() -> assertThat(burst.stream().collect(Collectors.toMap(
                    n -> n, n -> states(events, ns, n)))).isEqualTo(burst.stream().collect(Collectors.toMap(
                    n -> n, n -> RUN))));
        }
    }

    @Test
    void aChangeThatCannotBeWrittenDoesNotKeepTheOthersOfItsTransactionOut() {
        QuarkusMock.installMockForType(new FailingJobStore(pool, "broken"), JobStore.class);
        String ns = Callers.freshNamespace();
        List<String> names = List.of("before-1", "broken", "after-1");
        launch(ns, "held");
        names.forEach(name -> launch(ns, name));
        try (EventReader events = new EventReader("lakehouse.sparkjobs")) {
            whileWriterHeld(ns, "held", () -> names.forEach(name -> step(ns, name, "RUNNING")), names.size());

            await().atMost(Api.PROPAGATION).until(() -> "RUNNING".equals(state(ns, "before-1"))
                    && "RUNNING".equals(state(ns, "after-1")));
            await().atMost(Api.PROPAGATION).until(() -> states(events, ns, "after-1").equals(List.of("RUNNING"))
                    && states(events, ns, "before-1").equals(List.of("RUNNING")));
            // The broken one is not in the history, and no event claims it is.
            assertThat(state(ns, "broken")).isEqualTo("NEW");
            assertThat(states(events, ns, "broken")).isEmpty();
        }
    }

    /**
     * Holds the row of job {@code held} and moves it to SUBMITTED: the writer's transaction waits for the row;
     * then {@code changes} run and this waits until the writer has {@code queued} changes waiting, before
     * letting go.
     */
    private void whileWriterHeld(String ns, String held, Runnable changes, int queued) {
        SqlConnection lock = pool.getConnection().await().indefinitely();
        try {
            lock.query("BEGIN").execute().await().indefinitely();
            lock.preparedQuery("SELECT 1 FROM jobs WHERE namespace = $1 AND name = $2 FOR UPDATE")
                    .execute(Tuple.of(ns, held)).await().indefinitely();
            step(ns, held, "SUBMITTED");
            await().atMost(Api.PROPAGATION).until(() -> waitingForLocks() == 1);
            changes.run();
            await().atMost(Api.PROPAGATION).until(() -> queueDepth() == queued);
        } finally {
            lock.query("ROLLBACK").execute().await().indefinitely();
            lock.close().await().indefinitely();
        }
    }

    private void step(String ns, String name, String state) {
        Operator.state(kube, ns, name, state, "2026-12-03T01:00:00Z",
                "COMPLETED".equals(state) ? "2026-12-03T01:01:00Z" : null);
    }

    private double queueDepth() {
        var gauge = metrics.find("lakehouse.sparkjobs.tracker.queue.depth").gauge();
        return gauge == null ? -1 : gauge.value();
    }

    private long waitingForLocks() {
        return pool.query("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                + " AND datname = current_database()").execute().await().indefinitely().iterator().next().getLong(0);
    }

    private long writers(String ns, List<String> names) {
        return pool.preparedQuery("SELECT count(DISTINCT xmin::text) FROM jobs WHERE namespace = $1"
                        + " AND name = ANY($2)")
                .execute(Tuple.of(ns, names.toArray(String[]::new))).await().indefinitely().iterator().next()
                .getLong(0);
    }

    private static String state(String ns, String name) {
        return asAdmin().get(jobs(ns) + "/" + name).path("state");
    }

    private static List<String> states(EventReader events, String ns, String name) {
        return events.events(ns + "/sparkjob/" + name).stream()
                .filter(e -> e.type() == EventType.SPARKJOB_STATE_CHANGED)
                .map(e -> e.data().path("state").asText()).toList();
    }

    private static void launch(String ns, String name) {
        asAdmin().body("{\"name\":\"" + name + "\",\"image\":\"apache/spark:3.5.3\","
                + "\"source\":{\"type\":\"script\",\"script\":\"print(1)\\n\"}}").post(jobs(ns)).then().statusCode(201);
    }
}
