package io.lakehouse.sparkjobs.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.sparkjobs.it.Api.jobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.StatementWrites;
import io.lakehouse.sparkjobs.store.CountingJobStore;
import io.lakehouse.sparkjobs.store.JobStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * What a launch and the tracking of its job cost the database (quality bar P12), counted on the real
 * PostgreSQL: write transactions are those that wrote a row of a table of the service's schema, seen by
 * triggers ({@link StatementWrites}: exact, no statistics delay; the cluster's own transaction ids also
 * counted writers that are not the service, and CI once counted 7 for the tracking's 6), and the tracker's
 * state updates are counted on the real store.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = SparkCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class TrackingCostTest {

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    @Inject
    KafkaClientService kafka;

    @Test
    void aLaunchWritesAtMostFiveTransactionsAndItsJobTrackedToTheEndWithItsLogSix() {
        String ns = Callers.freshNamespace();
        launch(ns, "warm-up");
        awaitOutboxPublished();
        awaitConsumersAtTheEnd();
        awaitNoWriter();
        try (EventReader events = new EventReader("lakehouse.sparkjobs");
                StatementWrites writes = new StatementWrites(pool).watchEveryTable()) {
            launch(ns, "costed");
            awaitOutboxPublished();
            long launched = writes.transactions();

            Operator.state(kube, ns, "costed", "SUBMITTED", "2026-12-03T01:00:00Z", null);
            awaitRecorded(ns, "costed", "SUBMITTED");
            Operator.pods(kube, ns, "costed", 1);
            server.expect().get().withPath("/api/v1/namespaces/" + ns + "/pods/costed-driver/log?tailLines=200")
                    .andReturn(200, "INFO DAGScheduler: Job 0 finished\n").always();
            Operator.state(kube, ns, "costed", "RUNNING", "2026-12-03T01:00:00Z", null);
            awaitRecorded(ns, "costed", "RUNNING");
            Operator.state(kube, ns, "costed", "COMPLETED", "2026-12-03T01:00:00Z", "2026-12-03T01:01:00Z");
            await().atMost(Api.PROPAGATION).until(() -> keptLog(ns, "costed") != null);
            awaitOutboxPublished();
            long tracked = writes.transactions();

            // Three state changes, each with its event and the relay's mark; the driver's lines kept with the last
            // one (a write of its own before: 7).
            assertThat(tracked - launched).as("write transactions tracking the job to COMPLETED").isLessThanOrEqualTo(6);
            // The launch: the audit intent, the row with sparkjob.submitted, the audit outcome replacing the intent,
            // and the relay marking both events sent, in one pass or two (the outcome commits after the row).
            assertThat(launched).as("write transactions of the launch").isLessThanOrEqualTo(5);
            assertThat(keptLog(ns, "costed")).isEqualTo("INFO DAGScheduler: Job 0 finished\n");
            await().atMost(Api.PROPAGATION).until(() -> events.events(ns + "/sparkjob/costed").stream()
                    .filter(e -> e.type() == EventType.SPARKJOB_STATE_CHANGED)
                    .map(e -> e.data().path("state").asText()).toList()
                    .equals(List.of("SUBMITTED", "RUNNING", "COMPLETED")));
        }
    }

    @Test
    void statusUpdatesThatChangeNoStateCostNoTransaction() {
        CountingJobStore store = new CountingJobStore(pool);
        QuarkusMock.installMockForType(store, JobStore.class);
        String ns = Callers.freshNamespace();
        launch(ns, "busy");
        Operator.state(kube, ns, "busy", "RUNNING", "2026-12-03T01:00:00Z", null);
        awaitRecorded(ns, "busy", "RUNNING");
        int before = store.updates();

        // The operator rewrites the status of a running job often (executors come and go, attempts): same state.
        for (int i = 1; i <= 5; i++) {
            Operator.executors(kube, ns, "busy", i);
        }
        Operator.state(kube, ns, "busy", "COMPLETED", "2026-12-03T01:00:00Z", "2026-12-03T01:01:00Z");
        awaitRecorded(ns, "busy", "COMPLETED");

        // Events come in order: five status updates, then the end; only the end was written.
        assertThat(store.updates() - before).as("state updates sent for 5 same-state updates and the end")
                .isEqualTo(1);
        asAdmin().get(jobs(ns) + "/busy").then().statusCode(200);
    }

    private static void launch(String ns, String name) {
        asAdmin().body("{\"name\":\"" + name + "\",\"image\":\"apache/spark:3.5.3\","
                + "\"source\":{\"type\":\"script\",\"script\":\"print(1)\\n\"}}").post(jobs(ns)).then().statusCode(201);
    }

    private void awaitRecorded(String ns, String name, String state) {
        await().atMost(Api.PROPAGATION).until(() -> state.equals(asAdmin().get(jobs(ns) + "/" + name).path("state")));
        awaitOutboxPublished();
    }

    /**
     * Every event written and sent: no outbox row unpublished and no audit intent left. A launch's audit outcome
     * commits after its answer (it replaces the intent with its event), so an empty outbox alone could be seen before
     * it, and its commit and the relay's mark then counted with the tracking.
     */
    private void awaitOutboxPublished() {
        await().atMost(Api.PROPAGATION).until(() -> pool.query("SELECT (SELECT count(*) FROM outbox WHERE published_at"
                + " IS NULL) + (SELECT count(*) FROM audit_intents)").execute().await().indefinitely().iterator().next()
                .getLong(0) == 0);
    }

    /**
     * Until the app's consumers have fetched their topics to the end. The counts below include the app's inbox, and the
     * consumers (a new group at each start of the app) read their topics from the beginning, writing an inbox row for
     * each event they keep: every earlier test module's events. Most of those they skip without a
     * write, so a quiet database alone does not show they are done (CI counted 10 transactions for a launch of 5,
     * then 7 for a tracking of 6, while they drained).
     */
    private void awaitConsumersAtTheEnd() {
        for (String channel : List.of("lakehouse-instances", "lakehouse-access")) {
            await().atMost(Duration.ofSeconds(90)).until(() -> kafka.getConsumer(channel)
                    .runOnPollingThread(consumer -> {
                        Set<TopicPartition> assigned = consumer.assignment();
                        Map<TopicPartition, Long> end = consumer.endOffsets(assigned);
                        return !assigned.isEmpty()
                                && assigned.stream().allMatch(p -> consumer.position(p) >= end.get(p));
                    }).await().atMost(Duration.ofSeconds(10)));
        }
    }

    /** Until no transaction of the cluster has written for a second: the records fetched last are applied. */
    private void awaitNoWriter() {
        long[] last = {-1};
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            long next = nextTransactionId();
            boolean quiet = next == last[0];
            last[0] = next;
            return quiet;
        });
    }

    /** The id the next writing transaction of the cluster gets: read-only transactions get none. */
    private long nextTransactionId() {
        return Long.parseLong(pool.query("SELECT pg_snapshot_xmax(pg_current_snapshot())::text").execute().await()
                .indefinitely().iterator().next().getString(0));
    }

    private String keptLog(String ns, String name) {
        return pool.preparedQuery("SELECT driver_log FROM jobs WHERE namespace = $1 AND name = $2")
                .execute(Tuple.of(ns, name)).await().indefinitely().iterator().next().getString(0);
    }
}
