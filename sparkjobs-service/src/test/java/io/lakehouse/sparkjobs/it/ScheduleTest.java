package io.lakehouse.sparkjobs.it;

import static io.lakehouse.common.testing.Callers.as;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.sparkjobs.it.Api.jobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CrdSchemas;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.lakehouse.sparkjobs.kube.SparkResources;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Schedules: a ScheduledSparkApplication, next runs, run now, suspend, resume, delete; runs in the history. */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = SparkCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class ScheduleTest {

    static final CrdSchemas SCHEDULED = CrdSchemas.named("sparkoperator.k8s.io_scheduledsparkapplications.yaml");

    @Inject
    KubernetesClient kube;

    static String schedules(String ns) {
        return "/api/v1/namespaces/" + ns + "/spark-schedules";
    }

    static ObjectNode scheduleForm(String name, String cron, String zone, String policy) {
        ObjectNode form = Api.JSON.createObjectNode().put("name", name).put("cron", cron).put("timeZone", zone)
                .put("concurrencyPolicy", policy).put("runsKept", 5);
        ObjectNode job = form.putObject("job").put("image", "apache/spark:3.5.3");
        job.putObject("source").put("type", "script").put("script", Api.SCRIPT);
        return form;
    }

    private GenericKubernetesResource scheduled(String ns, String name) {
        return kube.genericKubernetesResources(SparkResources.SCHEDULES).inNamespace(ns).withName(name).get();
    }

    private JsonNode spec(GenericKubernetesResource o) {
        return Api.JSON.valueToTree(o.getAdditionalProperties().get("spec"));
    }

    @Test
    void aScheduleRunsOnItsCronInItsZoneCanRunNowBeSuspendedResumedAndDeleted() {
        String ns = Callers.freshNamespace();
        try (EventWriter writer = new EventWriter(); EventReader events = new EventReader("lakehouse.sparkjobs")) {
            Api.grantRole(writer, ns, "otto", "operator");
            ObjectNode form = scheduleForm("nightly", "30 6 * * 1-5", "Europe/Paris", "Forbid");
            as("otto").body(form.toString()).post(schedules(ns)).then().statusCode(403);
            asAdmin().body(form.toString()).post(schedules(ns)).then().statusCode(201)
                    .body("name", equalTo("nightly")).body("concurrencyPolicy", equalTo("Forbid"))
                    .body("nextRuns.size()", equalTo(5))
                    .body("nextRuns[0]", matchesPattern(".*T06:30(\\+01:00|\\+02:00)"))
                    .body("job.source.script", equalTo(null));

            GenericKubernetesResource object = scheduled(ns, "nightly");
            SCHEDULED.assertValid(object);
            JsonNode spec = spec(object);
            assertThat(spec.path("schedule").asText()).isEqualTo("30 6 * * 1-5");
            assertThat(spec.path("timeZone").asText()).isEqualTo("Europe/Paris");
            assertThat(spec.path("concurrencyPolicy").asText()).isEqualTo("Forbid");
            assertThat(spec.path("successfulRunHistoryLimit").asInt()).isEqualTo(5);
            assertThat(spec.path("template").path("mainApplicationFile").asText()).isEqualTo("local:///opt/job/main.py");
            assertThat(kube.configMaps().inNamespace(ns).withName("sparkjob-nightly").get().getMetadata()
                    .getOwnerReferences().get(0).getKind()).isEqualTo("ScheduledSparkApplication");

            // Run now: an operator may; the run carries the schedule's mark.
            String run = as("otto").post(schedules(ns) + "/nightly/run").then().statusCode(201)
                    .body("schedule", equalTo("nightly")).body("name", matchesPattern("nightly-[a-z0-9]{5}"))
                    .extract().path("name");
            assertThat(kube.configMaps().inNamespace(ns).withName("sparkjob-" + run).get().getData())
                    .containsEntry("main.py", Api.SCRIPT);
            // A run the operator starts on the cron: found by the informer, shown with its schedule.
            GenericKubernetesResource cronRun = Api.JSON.convertValue(Map.of("apiVersion", SparkResources.API_VERSION,
                    "kind", "SparkApplication",
                    "metadata", Map.of("name", "nightly-1764739800000000000", "namespace", ns,
                            "labels", new HashMap<>(object.getMetadata().getLabels())),
                    "spec", spec.path("template")), GenericKubernetesResource.class);
            cronRun.getMetadata().getLabels().put("sparkoperator.k8s.io/scheduled-app-name", "nightly");
            cronRun.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
                    .withApiVersion(SparkResources.API_VERSION).withKind("ScheduledSparkApplication")
                    .withName("nightly").withUid(object.getMetadata().getUid()).build()));
            kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(ns).resource(cronRun).create();
            await().atMost(Api.PROPAGATION).until(() -> asAdmin().get(jobs(ns) + "?schedule=nightly")
                    .jsonPath().getList("items.name").size() == 2);
            asAdmin().get(jobs(ns) + "/nightly-1764739800000000000").then().body("schedule", equalTo("nightly"))
                    .body("handMade", equalTo(false)).body("sourceType", equalTo("script"))
                    .body("createdBy", equalTo("root-admin"));
            // A cron run has the schedule's form: it relaunches like any job (a run of its own, not the schedule's).
            String rerun = asAdmin().post(jobs(ns) + "/nightly-1764739800000000000/relaunch").then().statusCode(201)
                    .extract().path("name");
            assertThat(kube.configMaps().inNamespace(ns).withName("sparkjob-" + rerun).get().getData())
                    .containsEntry("main.py", Api.SCRIPT);

            asAdmin().post(schedules(ns) + "/nightly/suspend").then().statusCode(200)
                    .body("suspended", equalTo(true)).body("nextRuns.size()", equalTo(0));
            assertThat(spec(scheduled(ns, "nightly")).path("suspend").asBoolean()).isTrue();
            asAdmin().post(schedules(ns) + "/nightly/resume").then().statusCode(200).body("suspended", equalTo(false));
            asAdmin().body("{\"cron\":\"0 2 * * *\",\"concurrencyPolicy\":\"Replace\"}").patch(schedules(ns) + "/nightly")
                    .then().statusCode(200).body("nextRuns[0]", matchesPattern(".*T02:00(\\+01:00|\\+02:00)"));
            JsonNode patched = spec(scheduled(ns, "nightly"));
            assertThat(patched.path("schedule").asText()).isEqualTo("0 2 * * *");
            assertThat(patched.path("concurrencyPolicy").asText()).isEqualTo("Replace");
            assertThat(patched.path("suspend").asBoolean()).isFalse();
            asAdmin().body("{\"cron\":\"61 * * * *\"}").patch(schedules(ns) + "/nightly").then().statusCode(422);
            asAdmin().get(schedules(ns)).then().body("name", equalTo(List.of("nightly")))
                    .body("[0].cron", equalTo("0 2 * * *"));

            asAdmin().delete(schedules(ns) + "/nightly").then().statusCode(204);
            assertThat(scheduled(ns, "nightly")).isNull();
            assertThat(kube.configMaps().inNamespace(ns).withName("sparkjob-nightly").get()).isNull();
            asAdmin().get(schedules(ns) + "/nightly").then().statusCode(404);
            // The runs' history stays.
            asAdmin().get(jobs(ns) + "?schedule=nightly").then().body("items.name", hasItem(run));
            await().atMost(Api.PROPAGATION).until(() -> events.events(ns + "/sparkschedule/nightly").stream()
                    .map(e -> e.type()).toList().equals(List.of(EventType.SPARKSCHEDULE_CREATED,
                            EventType.SPARKSCHEDULE_UPDATED, EventType.SPARKSCHEDULE_UPDATED,
                            EventType.SPARKSCHEDULE_UPDATED, EventType.SPARKSCHEDULE_DELETED)));
        }
    }

    static Stream<Arguments> badSchedules() {
        return Stream.of(
                Arguments.of(scheduleForm("bad-cron", "0 25 * * *", "UTC", "Forbid"), "cron"),
                Arguments.of(scheduleForm("six-fields", "0 0 6 * * *", "UTC", "Forbid"), "cron"),
                Arguments.of(scheduleForm("bad-zone", "0 6 * * *", "Mars/Olympus", "Forbid"), "timeZone"),
                Arguments.of(scheduleForm("offset-zone", "0 6 * * *", "+02:00", "Forbid"), "timeZone"),
                Arguments.of(scheduleForm("no-policy", "0 6 * * *", "UTC", null), "concurrencyPolicy"),
                Arguments.of(scheduleForm("a".repeat(37), "0 6 * * *", "UTC", "Allow"), "name"),
                Arguments.of(scheduleForm("bad-job", "0 6 * * *", "UTC", "Allow").put("runsKept", 0), "runsKept"),
                Arguments.of(withJobField(scheduleForm("named-job", "0 6 * * *", "UTC", "Allow"), "name", "x"),
                        "job.name"),
                Arguments.of(withJobField(scheduleForm("bad-ttl", "0 6 * * *", "UTC", "Allow"), "ttlHours", 0),
                        "job.ttlHours"));
    }

    private static ObjectNode withJobField(ObjectNode form, String field, Object value) {
        if (value instanceof Integer i) {
            form.with("job").put(field, i);
        } else {
            form.with("job").put(field, value.toString());
        }
        return form;
    }

    @ParameterizedTest
    @MethodSource("badSchedules")
    void aBadScheduleIs422AndCreatesNothing(ObjectNode form, String field) {
        String ns = Callers.freshNamespace();
        asAdmin().body(form.toString()).post(schedules(ns)).then().statusCode(422)
                .body("errors.field", hasItem(field));
        assertThat(kube.genericKubernetesResources(SparkResources.SCHEDULES).inNamespace(ns).list().getItems())
                .isEmpty();
        assertThat(kube.configMaps().inNamespace(ns).list().getItems()).isEmpty();
        asAdmin().get(schedules(ns)).then().statusCode(200).body("size()", equalTo(0));
    }
}
