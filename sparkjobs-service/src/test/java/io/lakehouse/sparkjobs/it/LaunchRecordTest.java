package io.lakehouse.sparkjobs.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.sparkjobs.it.Api.jobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.sparkjobs.kube.SparkResources;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How a launch records its job (quality bar P12): the row and its {@code sparkjob.submitted} outbox row in one
 * statement, one round trip to PostgreSQL instead of a name check and a four-trip transaction; the name check is
 * the row's unique key, with the same 409 and nothing left behind. The statements that write the rows are seen by
 * a trigger of the test's ({@code current_query()}: the text the service sent).
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = SparkCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class LaunchRecordTest {

    private static final String FORM = "{\"name\":\"%s\",\"image\":\"apache/spark:3.5.3\","
            + "\"source\":{\"type\":\"script\",\"script\":\"print(1)\\n\"}}";

    @Inject
    KubernetesClient kube;

    @Inject
    Pool pool;

    @BeforeEach
    void seeWritingStatements() {
        sql("CREATE TABLE IF NOT EXISTS test_writes (tbl TEXT, subject TEXT, statement TEXT)");
        sql("CREATE OR REPLACE FUNCTION test_write_seen() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF TG_TABLE_NAME = 'jobs' THEN INSERT INTO test_writes VALUES (TG_TABLE_NAME,"
                + " NEW.namespace || '/sparkjob/' || NEW.name, current_query());"
                + " ELSE INSERT INTO test_writes VALUES (TG_TABLE_NAME, NEW.subject, current_query()); END IF;"
                + " RETURN NULL; END $$");
        sql("CREATE TRIGGER test_jobs_written AFTER INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION test_write_seen()");
        sql("CREATE TRIGGER test_outbox_written AFTER INSERT ON outbox FOR EACH ROW"
                + " EXECUTE FUNCTION test_write_seen()");
    }

    @AfterEach
    void dropTriggers() {
        sql("DROP TRIGGER test_jobs_written ON jobs");
        sql("DROP TRIGGER test_outbox_written ON outbox");
        sql("DROP TABLE test_writes");
    }

    @Test
    void aLaunchWritesItsJobAndItsEventInOneStatement() {
        String ns = Callers.freshNamespace();
        String subject = ns + "/sparkjob/one-trip";
        try (EventReader events = new EventReader("lakehouse.sparkjobs")) {
            launch(ns, "one-trip").statusCode(201);

            List<String> writes = writes(subject);
            assertThat(writes).as("tables written for the launch, with the statement that wrote them")
                    .hasSize(2).allMatch(w -> w.contains("INSERT INTO jobs") && w.contains("INSERT INTO outbox"));
            assertThat(writes.get(0).substring(writes.get(0).indexOf(' ')))
                    .isEqualTo(writes.get(1).substring(writes.get(1).indexOf(' ')));
            // The relay sees the row like any other: the event is published.
            await().atMost(Api.PROPAGATION).until(() -> events.events(subject).stream()
                    .anyMatch(e -> e.type() == EventType.SPARKJOB_SUBMITTED));
        }
        asAdmin().get(jobs(ns) + "/one-trip").then().statusCode(200);
    }

    @Test
    void aNameOfTheHistoryWhoseApplicationIsGoneIs409AndCreatesNothing() {
        String ns = Callers.freshNamespace();
        String subject = ns + "/sparkjob/again";
        launch(ns, "again").statusCode(201);
        String createdAt = asAdmin().get(jobs(ns) + "/again").then().statusCode(200).extract().path("createdAt");
        // The operator's TTL removed the application (its ConfigMap goes with it): the job stays in the history.
        kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(ns).withName("again").delete();
        kube.configMaps().inNamespace(ns).withName("sparkjob-again").delete();
        await().atMost(Api.PROPAGATION).until(() -> kube.genericKubernetesResources(SparkResources.APPLICATIONS)
                .inNamespace(ns).withName("again").get() == null);

        // No application is created and removed again: on a cluster the operator could start its driver.
        List<String> added = new CopyOnWriteArrayList<>();
        try (Watch watch = kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(ns)
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, GenericKubernetesResource resource) {
                        added.add(action + " " + resource.getMetadata().getName());
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                })) {
            launch(ns, "again").statusCode(409).contentType("application/problem+json")
                    .body("detail", containsString("a Spark job 'again' already exists in namespace '" + ns + "'"));
            launch(ns, "witness").statusCode(201);
            await().atMost(Api.PROPAGATION).until(() -> added.contains("ADDED witness"));
        }
        assertThat(added).noneMatch(e -> e.endsWith(" again"));

        // Nothing left on the cluster, the history's job as it was, no second event.
        assertThat(kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(ns).withName("again").get())
                .isNull();
        assertThat(kube.configMaps().inNamespace(ns).withName("sparkjob-again").get()).isNull();
        asAdmin().get(jobs(ns) + "/again").then().statusCode(200)
                .body("createdAt", org.hamcrest.Matchers.equalTo(createdAt))
                .body("state", org.hamcrest.Matchers.equalTo("NEW"));
        assertThat(pool.preparedQuery("SELECT count(*) FROM outbox WHERE subject = $1").execute(Tuple.of(subject))
                .await().indefinitely().iterator().next().getLong(0)).isEqualTo(1L);
    }

    private static io.restassured.response.ValidatableResponse launch(String ns, String name) {
        return asAdmin().body(String.format(FORM, name)).post(jobs(ns)).then();
    }

    /** "table statement" of each row written for the subject. */
    private List<String> writes(String subject) {
        List<String> writes = new ArrayList<>();
        for (Row r : pool.preparedQuery("SELECT tbl, statement FROM test_writes WHERE subject = $1 ORDER BY tbl")
                .execute(Tuple.of(subject)).await().indefinitely()) {
            writes.add(r.getString(0) + " " + r.getString(1));
        }
        return writes;
    }

    private void sql(String statement) {
        pool.query(statement).execute().await().indefinitely();
    }
}
