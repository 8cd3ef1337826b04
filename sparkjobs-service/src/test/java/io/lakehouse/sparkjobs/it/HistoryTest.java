package io.lakehouse.sparkjobs.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.sparkjobs.it.Api.application;
import static io.lakehouse.sparkjobs.it.Api.jobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.sparkjobs.kube.SparkResources;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The history: states from the operator, hand-made jobs, detail, relaunch, cancel, delete. */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = SparkCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class HistoryTest {

    @Inject
    KubernetesClient kube;

    private String state(String ns, String name) {
        return asAdmin().get(jobs(ns) + "/" + name).path("state");
    }

    private static ObjectNode imageForm(String name) {
        ObjectNode form = Api.JSON.createObjectNode().put("image", "apache/spark:3.5.3").put("name", name);
        form.putObject("source").put("type", "script").put("script", Api.SCRIPT);
        return form;
    }

    @Test
    void aJobFollowsTheOperatorToCompletedThenIsRelaunchedAsIsAndWithChangesThenDeleted() {
        String ns = Callers.freshNamespace();
        try (EventReader events = new EventReader("lakehouse.sparkjobs")) {
            asAdmin().body(imageForm("report").toString()).post(jobs(ns)).then().statusCode(201);
            Operator.state(kube, ns, "report", "SUBMITTED", "2026-12-03T01:00:00Z", null);
            await().atMost(Api.PROPAGATION).until(() -> "SUBMITTED".equals(state(ns, "report")));
            Operator.pods(kube, ns, "report", 2);
            Operator.state(kube, ns, "report", "RUNNING", "2026-12-03T01:00:00Z", null);
            await().atMost(Api.PROPAGATION).until(() -> "RUNNING".equals(state(ns, "report")));
            asAdmin().get(jobs(ns) + "/report").then().statusCode(200)
                    .body("startedAt", matchesPattern("2026-12-03T01:00Z?.*"))
                    .body("pods.name", equalTo(List.of("report-driver", "report-exec-1", "report-exec-2")))
                    .body("pods.role", equalTo(List.of("driver", "executor", "executor")))
                    .body("pods[0].phase", equalTo("Running"));
            asAdmin().delete(jobs(ns) + "/report").then().statusCode(409);

            Operator.state(kube, ns, "report", "COMPLETED", "2026-12-03T01:00:00Z", "2026-12-03T01:02:30Z");
            await().atMost(Api.PROPAGATION).until(() -> "COMPLETED".equals(state(ns, "report")));
            asAdmin().get(jobs(ns) + "/report").then().body("durationSeconds", equalTo(150));
            asAdmin().get(jobs(ns) + "?state=COMPLETED").then().body("items.name", equalTo(List.of("report")));
            asAdmin().post(jobs(ns) + "/report/cancel").then().statusCode(409);
            await().atMost(Api.PROPAGATION).until(() -> events.events(ns + "/sparkjob/report").stream()
                    .filter(e -> e.type() == EventType.SPARKJOB_STATE_CHANGED)
                    .map(e -> e.data().path("state").asText()).toList()
                    .equals(List.of("SUBMITTED", "RUNNING", "COMPLETED")));

            // As is: a new name, the same script, the stored form.
            String again = asAdmin().post(jobs(ns) + "/report/relaunch").then().statusCode(201)
                    .body("name", matchesPattern("report-[a-z0-9]{5}")).extract().path("name");
            assertThat(kube.configMaps().inNamespace(ns).withName("sparkjob-" + again).get().getData())
                    .containsEntry("main.py", Api.SCRIPT);
            // With changes: the body's fields over the stored form.
            asAdmin().body("{\"name\":\"report-big\",\"executor\":{\"instances\":3}}")
                    .post(jobs(ns) + "/report/relaunch").then().statusCode(201);
            GenericKubernetesResource big = application(kube, ns, "report-big");
            LaunchTest.APPLICATIONS.assertValid(big);
            assertThat(Api.JSON.valueToTree(big.getAdditionalProperties().get("spec")).path("executor")
                    .path("instances").asInt()).isEqualTo(3);
            asAdmin().body("{\"executor\":{\"instances\":0}}").post(jobs(ns) + "/report/relaunch").then()
                    .statusCode(422);

            asAdmin().delete(jobs(ns) + "/report").then().statusCode(204);
            assertThat(application(kube, ns, "report")).isNull();
            assertThat(kube.configMaps().inNamespace(ns).withName("sparkjob-report").get()).isNull();
            asAdmin().get(jobs(ns) + "/report").then().statusCode(404);
            await().atMost(Api.PROPAGATION).until(() -> events.events(ns + "/sparkjob/report").stream()
                    .anyMatch(e -> e.type() == EventType.SPARKJOB_DELETED));
        }
    }

    @Test
    void aHandMadeJobShowsUpCanBeCancelledAndDeletedButNotRelaunched() {
        String ns = Callers.freshNamespace();
        GenericKubernetesResource app = kube.getKubernetesSerialization().unmarshal("""
                apiVersion: sparkoperator.k8s.io/v1beta2
                kind: SparkApplication
                metadata: {name: by-hand, namespace: %s}
                spec:
                  type: Scala
                  mode: cluster
                  sparkVersion: 3.5.3
                  image: apache/spark:3.5.3
                  mainClass: org.apache.spark.examples.SparkPi
                  mainApplicationFile: local:///opt/spark/examples/jars/spark-examples.jar
                  driver: {cores: 1, memory: 512m}
                  executor: {instances: 1, cores: 1, memory: 512m}
                """.formatted(ns), GenericKubernetesResource.class);
        kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(ns).resource(app).create();
        await().atMost(Api.PROPAGATION).until(() -> asAdmin().get(jobs(ns) + "/by-hand").statusCode() == 200);
        asAdmin().get(jobs(ns)).then().body("items.name", equalTo(List.of("by-hand")))
                .body("items[0].handMade", equalTo(true)).body("items[0].state", equalTo("NEW"));
        Operator.pods(kube, ns, "by-hand", 1);
        Operator.state(kube, ns, "by-hand", "RUNNING", "2026-12-03T02:00:00Z", null);
        await().atMost(Api.PROPAGATION).until(() -> "RUNNING".equals(state(ns, "by-hand")));

        asAdmin().post(jobs(ns) + "/by-hand/relaunch").then().statusCode(409)
                .body("detail", equalTo("'by-hand' was not launched through the API: there is no form to relaunch"
                        + " it from"));
        asAdmin().post(jobs(ns) + "/by-hand/cancel").then().statusCode(200).body("state", equalTo("CANCELLED"));
        assertThat(application(kube, ns, "by-hand")).isNull();
        assertThat(kube.pods().inNamespace(ns).list().getItems()).isEmpty();
        assertThat(state(ns, "by-hand")).isEqualTo("CANCELLED");
        asAdmin().post(jobs(ns) + "/by-hand/cancel").then().statusCode(409);
        asAdmin().delete(jobs(ns) + "/by-hand").then().statusCode(204);
        asAdmin().get(jobs(ns) + "/by-hand").then().statusCode(404);
        asAdmin().get(jobs(ns) + "/by-hand/logs").then().statusCode(404);
    }

    @Test
    void aLaunchWhoseReplicaDiedBeforeItsRowIsRecordedFromTheCluster() {
        String ns = Callers.freshNamespace();
        // what a launch leaves when its replica is killed between creating the application and committing
        // its row (the fault suite's kill-mid-reconcile-sparkjobs): ours, and no row
        GenericKubernetesResource app = kube.getKubernetesSerialization().unmarshal("""
                apiVersion: sparkoperator.k8s.io/v1beta2
                kind: SparkApplication
                metadata:
                  name: orphan
                  namespace: %s
                  labels: {app.kubernetes.io/managed-by: sparkjobs-service, lakehouse.io/sparkjob: orphan}
                spec:
                  type: Python
                  mode: cluster
                  sparkVersion: 3.5.3
                  image: apache/spark:3.5.3
                  mainApplicationFile: local:///opt/job/main.py
                  driver: {cores: 1, memory: 512m}
                  executor: {instances: 1, cores: 1, memory: 512m}
                """.formatted(ns), GenericKubernetesResource.class);
        kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(ns).resource(app).create();
        // within the launch's grace (30 s) its row may still come: left to the launch
        asAdmin().get(jobs(ns) + "/orphan").then().statusCode(404);
        // then the tracker's resync (60 s) records it: the job shows, never running unseen
        await().atMost(Duration.ofSeconds(120)).until(() -> asAdmin().get(jobs(ns) + "/orphan").statusCode() == 200);
        asAdmin().get(jobs(ns)).then().body("items.name", equalTo(List.of("orphan")));
    }

    @Test
    void aJobTheOperatorDoesNotAnswerSaysItMayNotWatchTheNamespace() {
        String ns = Callers.freshNamespace();
        asAdmin().body(imageForm("ignored").toString()).post(jobs(ns)).then().statusCode(201)
                .body("note", equalTo(null));
        await().atMost(Api.PROPAGATION).until(() -> asAdmin().get(jobs(ns) + "/ignored").asString()
                .contains("it may not watch namespace '" + ns + "'"));
        asAdmin().get(jobs(ns)).then().body("items[0].note", org.hamcrest.Matchers.containsString("Spark Operator"));
        Operator.state(kube, ns, "ignored", "SUBMITTED", "2026-12-03T01:00:00Z", null);
        await().atMost(Api.PROPAGATION).until(() -> "SUBMITTED".equals(state(ns, "ignored")));
        asAdmin().get(jobs(ns) + "/ignored").then().body("note", equalTo(null));
    }

    @Test
    void theHistoryIsPagedNewestFirst() {
        String ns = Callers.freshNamespace();
        for (String name : List.of("first", "second", "third")) {
            asAdmin().body(imageForm(name).toString()).post(jobs(ns)).then().statusCode(201);
        }
        String next = asAdmin().get(jobs(ns) + "?limit=2").then().statusCode(200)
                .body("items.name", equalTo(List.of("third", "second"))).extract().path("continue");
        asAdmin().get(jobs(ns) + "?limit=2&continue=" + next).then().statusCode(200)
                .body("items.name", equalTo(List.of("first"))).body("continue", equalTo(null));
    }
}
