package io.lakehouse.sparkjobs.it;

import static io.lakehouse.common.testing.Callers.as;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.sparkjobs.it.Api.application;
import static io.lakehouse.sparkjobs.it.Api.jobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CrdSchemas;
import io.lakehouse.common.testing.EventReader;
import io.lakehouse.common.testing.EventWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Launching from each source, on a profile or an explicit image: what lands on the cluster and in the history. */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = SparkCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class LaunchTest {

    static final CrdSchemas APPLICATIONS = CrdSchemas.named("sparkoperator.k8s.io_sparkapplications.yaml");
    private static final String CANARY = "canary-S3cr3t-" + "5c0ffee1";

    @Inject
    KubernetesClient kube;

    @Test
    void aScriptOnAProfileBecomesAValidSparkApplicationWithItsConfigMapAndTheSparkAccount() {
        String ns = Callers.freshNamespace();
        try (EventWriter writer = new EventWriter(); EventReader events = new EventReader("lakehouse.sparkjobs")) {
            Api.publishProfile(writer, ns, "spark");
            assertThat(kube.serviceAccounts().inNamespace(ns).withName("spark").get()).isNull();

            ObjectNode form = Api.scriptForm("daily-load", "spark");
            form.putArray("arguments").add("--day").add("2026-12-01");
            form.putObject("sparkConf").put("spark.sql.shuffle.partitions", "8");
            form.putObject("executor").put("instances", 2);
            asAdmin().body(form.toString()).post(jobs(ns)).then().statusCode(201)
                    .header("Location", org.hamcrest.Matchers.endsWith("/api/v1/namespaces/" + ns + "/spark-jobs/daily-load"))
                    .body("name", equalTo("daily-load")).body("state", equalTo("NEW"))
                    .body("sourceType", equalTo("script")).body("profile", equalTo("spark"))
                    .body("handMade", equalTo(false));

            GenericKubernetesResource app = application(kube, ns, "daily-load");
            APPLICATIONS.assertValid(app);
            JsonNode spec = Api.JSON.valueToTree(app.getAdditionalProperties().get("spec"));
            assertThat(spec.path("type").asText()).isEqualTo("Python");
            assertThat(spec.path("mode").asText()).isEqualTo("cluster");
            assertThat(spec.path("image").asText()).isEqualTo("apache/spark:4.0.1-scala2.13-java21-python3-ubuntu");
            // The profile names no registry Secret: the cluster's still reaches driver and executors.
            assertThat(spec.path("imagePullSecrets").toString()).isEqualTo("[\"" + Api.CLUSTER_PULL_SECRET + "\"]");
            assertThat(spec.path("mainApplicationFile").asText()).isEqualTo("local:///opt/job/main.py");
            assertThat(spec.path("arguments").toString()).isEqualTo("[\"--day\",\"2026-12-01\"]");
            assertThat(spec.path("sparkConf").path("spark.sql.catalog.lakehouse.warehouse").asText()).isEqualTo("cat");
            assertThat(spec.path("sparkConf").path("spark.sql.shuffle.partitions").asText()).isEqualTo("8");
            assertThat(spec.path("timeToLiveSeconds").asLong()).isEqualTo(168 * 3600L);
            assertThat(spec.path("restartPolicy").path("type").asText()).isEqualTo("Never");
            assertThat(spec.path("driver").path("serviceAccount").asText()).isEqualTo("spark");
            assertThat(spec.path("driver").path("coreLimit").asText()).isEqualTo("1");
            assertThat(spec.path("executor").path("instances").asInt()).isEqualTo(2);
            JsonNode driverPod = spec.path("driver").path("template").path("spec");
            assertThat(driverPod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
            assertThat(driverPod.path("enableServiceLinks").isBoolean()).isTrue();
            assertThat(driverPod.path("volumes").get(0).path("configMap").path("name").asText())
                    .isEqualTo("sparkjob-daily-load");
            JsonNode driver = driverPod.path("containers").get(0);
            assertThat(driver.path("name").asText()).isEqualTo("spark-kubernetes-driver");
            assertThat(driver.path("volumeMounts").get(0).path("mountPath").asText()).isEqualTo("/opt/job");
            assertThat(driver.path("securityContext").path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
            // Credentials by reference only; the catalog's properties composed by Kubernetes in the pod.
            assertThat(driver.path("env").findValuesAsText("name")).contains("CATALOG_CLIENT_SECRET",
                    "AWS_SECRET_ACCESS_KEY", "SPARK_SUBMIT_OPTS");
            assertThat(driver.path("env").toString()).contains(
                    "-Dspark.sql.catalog.lakehouse.credential=$(CATALOG_CLIENT_ID):$(CATALOG_CLIENT_SECRET)");
            assertThat(app.getMetadata().getLabels()).containsEntry("lakehouse.io/sparkjob", "daily-load");
            assertThat(app.getMetadata().getAnnotations().get("lakehouse.io/sparkjob-form"))
                    .contains("\"profile\":\"spark\"").doesNotContain("SparkSession");

            ConfigMap script = kube.configMaps().inNamespace(ns).withName("sparkjob-daily-load").get();
            assertThat(script.getData()).containsEntry("main.py", Api.SCRIPT);
            assertThat(script.getMetadata().getOwnerReferences()).extracting(o -> o.getName())
                    .containsExactly("daily-load");

            // The namespace had no spark account: created with its Role and RoleBinding.
            assertThat(kube.serviceAccounts().inNamespace(ns).withName("spark").get()).isNotNull();
            assertThat(kube.rbac().roles().inNamespace(ns).withName("spark").get().getRules().get(0).getResources())
                    .contains("pods", "services", "configmaps");
            assertThat(kube.rbac().roleBindings().inNamespace(ns).withName("spark").get().getSubjects().get(0)
                    .getName()).isEqualTo("spark");

            asAdmin().get(jobs(ns)).then().statusCode(200)
                    .body("items.name", equalTo(List.of("daily-load")));
            await().atMost(Api.PROPAGATION).until(() -> events.events(ns + "/sparkjob/daily-load").stream()
                    .anyMatch(e -> e.type() == EventType.SPARKJOB_SUBMITTED));
            LakehouseEvent submitted = events.events(ns + "/sparkjob/daily-load").get(0);
            assertThat(submitted.data().path("createdBy").asText()).isEqualTo("root-admin");

            // The same name again: 409, nothing changed.
            asAdmin().body(form.toString()).post(jobs(ns)).then().statusCode(409);
        }
    }

    @Test
    void anExplicitImageRunsWithoutCatalogAndANameIsSuggestedWhenAbsent() {
        String ns = Callers.freshNamespace();
        ObjectNode form = Api.JSON.createObjectNode().put("image", "registry.example/team/spark:3.5.3")
                .put("pullSecret", "registry-creds").put("ttlHours", 2);
        form.putObject("source").put("type", "script").put("script", Api.SCRIPT);
        String name = asAdmin().body(form.toString()).post(jobs(ns)).then().statusCode(201)
                .body("name", matchesPattern("pyspark-[a-z0-9]{5}")).extract().path("name");
        GenericKubernetesResource app = application(kube, ns, name);
        APPLICATIONS.assertValid(app);
        JsonNode spec = Api.JSON.valueToTree(app.getAdditionalProperties().get("spec"));
        assertThat(spec.path("image").asText()).isEqualTo("registry.example/team/spark:3.5.3");
        // The job's own registry Secret, and the cluster's (the code fetchers' images come from its registry).
        assertThat(spec.path("imagePullSecrets").toString())
                .isEqualTo("[\"registry-creds\",\"" + Api.CLUSTER_PULL_SECRET + "\"]");
        // Retention: the operator deletes the finished application (and its driver log) after ttlHours.
        assertThat(spec.path("timeToLiveSeconds").asLong()).isEqualTo(7200L);
        // No profile, so no Secret references: only the cluster's S3 checksum setting (on in the test stack),
        // on the driver and the executors.
        for (String role : List.of("driver", "executor")) {
            assertThat(spec.path(role).path("template").path("spec").path("containers").get(0).path("env").toString())
                    .as(role).isEqualTo("[{\"name\":\"AWS_REQUEST_CHECKSUM_CALCULATION\",\"value\":\"when_required\"},"
                            + "{\"name\":\"AWS_RESPONSE_CHECKSUM_VALIDATION\",\"value\":\"when_required\"}]");
        }
    }

    @Test
    void anS3SourceIsFetchedByAnInitContainerWithTheBucketsKeysByReferenceOnly() throws Exception {
        String ns = Callers.freshNamespace();
        Api.bucketSecret(kube, ns, "raw", CANARY);
        EventReader events = new EventReader("lakehouse.sparkjobs");
        ObjectNode form = Api.JSON.createObjectNode().put("image", "apache/spark:3.5.3");
        form.putObject("source").put("type", "s3").put("bucket", "raw").put("path", "jobs/daily_load.py");
        Response created = asAdmin().body(form.toString()).post(jobs(ns));
        created.then().statusCode(201).body("name", matchesPattern("daily-load-[a-z0-9]{5}"));
        String name = created.path("name");
        GenericKubernetesResource app = application(kube, ns, name);
        APPLICATIONS.assertValid(app);
        JsonNode spec = Api.JSON.valueToTree(app.getAdditionalProperties().get("spec"));
        assertThat(spec.path("mainApplicationFile").asText()).isEqualTo("local:///opt/job/jobs/daily_load.py");
        JsonNode init = spec.path("driver").path("template").path("spec").path("initContainers").get(0);
        assertThat(init.path("image").asText()).isEqualTo("amazon/aws-cli:2.22.35");
        assertThat(init.path("args").toString()).isEqualTo("[\"s3\",\"cp\",\"--no-progress\","
                + "\"s3://raw-data/jobs/daily_load.py\",\"/opt/job/jobs/daily_load.py\","
                + "\"--endpoint-url\",\"http://minio.storage.svc:9000\"]");
        assertThat(init.path("resources").path("limits").path("memory").asText()).isEqualTo("256Mi");
        assertThat(init.path("env").toString()).contains("\"secretKeyRef\":{\"key\":\"AWS_SECRET_ACCESS_KEY\",\"name\":\"raw\"}")
                .contains("{\"name\":\"AWS_REQUEST_CHECKSUM_CALCULATION\",\"value\":\"when_required\"}");
        // The canary never leaves its Secret: not in the resource, the response, the history, the log.
        assertThat(kube.getKubernetesSerialization().asJson(app)).doesNotContain(CANARY);
        assertThat(created.asString()).doesNotContain(CANARY);
        assertThat(asAdmin().get(jobs(ns) + "/" + name).asString()).doesNotContain(CANARY);
        assertThat(Files.readString(Path.of("target/quarkus-test.log"))).doesNotContain(CANARY);
        try (events) {
            await().atMost(Api.PROPAGATION).until(() -> !events.records(ns + "/sparkjob/" + name).isEmpty());
            assertThat(events.records(ns + "/sparkjob/" + name)).allSatisfy(r -> assertThat(
                    new String(r.value(), java.nio.charset.StandardCharsets.UTF_8)).doesNotContain(CANARY));
        }

        // A bucket the namespace does not have: 422.
        form.with("source").put("bucket", "nope");
        asAdmin().body(form.toString()).post(jobs(ns)).then().statusCode(422)
                .body("errors[0].field", equalTo("source.bucket"));
    }

    @Test
    void aGitSourceIsClonedWithTheUsersTokenFromItsSecretAndAJarRunsItsMainClass() {
        String ns = Callers.freshNamespace();
        ObjectNode form = Api.JSON.createObjectNode().put("image", "apache/spark:3.5.3").put("name", "etl")
                .put("mainClass", "com.example.Etl");
        form.putObject("source").put("type", "git").put("repository", "https://forgejo.example/team/etl.git")
                .put("branch", "main").put("path", "build/etl.jar").put("credentialsSecret", "my-forgejo-token");
        asAdmin().body(form.toString()).post(jobs(ns)).then().statusCode(422)
                .body("errors[0].field", equalTo("source.credentialsSecret"));
        assertThat(application(kube, ns, "etl")).isNull();

        kube.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("my-forgejo-token")
                .withNamespace(ns).endMetadata().withData(Map.of("token", Api.b64(CANARY))).build()).create();
        asAdmin().body(form.toString()).post(jobs(ns)).then().statusCode(201);
        GenericKubernetesResource app = application(kube, ns, "etl");
        APPLICATIONS.assertValid(app);
        JsonNode spec = Api.JSON.valueToTree(app.getAdditionalProperties().get("spec"));
        assertThat(spec.path("type").asText()).isEqualTo("Scala");
        assertThat(spec.path("mainClass").asText()).isEqualTo("com.example.Etl");
        assertThat(spec.path("mainApplicationFile").asText()).isEqualTo("local:///opt/job/repo/build/etl.jar");
        for (String role : List.of("driver", "executor")) {
            JsonNode init = spec.path(role).path("template").path("spec").path("initContainers").get(0);
            assertThat(init.path("image").asText()).isEqualTo("alpine/git:2.47.2");
            List<String> args = Api.JSON.convertValue(init.path("args"), List.class);
            assertThat(args.subList(2, args.size())).containsExactly("clone", "--depth", "1", "--single-branch",
                    "--branch", "main", "--", "https://forgejo.example/team/etl.git", "/opt/job/repo");
            assertThat(init.path("env").toString())
                    .contains("\"secretKeyRef\":{\"key\":\"token\",\"name\":\"my-forgejo-token\"}");
        }
        assertThat(kube.getKubernetesSerialization().asJson(app)).doesNotContain(CANARY);
    }

    @Test
    void onlyOperatorsLaunchAndViewersRead() {
        String ns = Callers.freshNamespace();
        try (EventWriter writer = new EventWriter()) {
            Api.grantRole(writer, ns, "vera", "viewer");
            Api.grantRole(writer, ns, "otto", "operator");
        }
        ObjectNode form = Api.JSON.createObjectNode().put("image", "apache/spark:3.5.3").put("name", "mine");
        form.putObject("source").put("type", "script").put("script", Api.SCRIPT);
        as("stranger").get(jobs(ns)).then().statusCode(403);
        as("vera").body(form.toString()).post(jobs(ns)).then().statusCode(403);
        assertThat(application(kube, ns, "mine")).isNull();
        as("otto").body(form.toString()).post(jobs(ns)).then().statusCode(201).body("createdBy", equalTo("otto"));
        as("vera").get(jobs(ns) + "/mine").then().statusCode(200).body("state", equalTo("NEW"));
    }
}
