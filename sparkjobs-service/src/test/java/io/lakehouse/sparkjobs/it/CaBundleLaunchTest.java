package io.lakehouse.sparkjobs.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.sparkjobs.it.Api.application;
import static io.lakehouse.sparkjobs.it.Api.jobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.TestCa;
import io.lakehouse.sparkjobs.kube.SparkResources;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With the cluster's private CA bundle ({@code lakehouse.cluster.ca-bundle}), every job's and schedule's driver and
 * executors trust it: the certificates in the job's ConfigMap, a truststore built from the job's image, the JVM
 * options after the job's own, and the code fetchers pointed at a PEM file.
 */
@QuarkusTest
@TestProfile(CaBundleLaunchTest.CaBundleOn.class)
@WithKubernetesTestServer(crud = true, setup = SparkCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class CaBundleLaunchTest {

    public static class CaBundleOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lakehouse.cluster.ca-bundle", TestCa.PEM);
        }
    }

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    KubernetesClient kube;

    @Inject
    InformerCache cache;

    @Test
    void aGitJobTrustsTheBundleInDriverExecutorsAndFetcherForOneConfigMapMore() throws InterruptedException {
        String ns = Callers.freshNamespace();
        asAdmin().body(gitForm("first").toString()).post(jobs(ns)).then().statusCode(201);
        LaunchCallsTest.awaitAccountCached(cache, ns, true);
        LaunchCallsTest.drain(server);

        asAdmin().body(gitForm("etl").toString()).post(jobs(ns)).then().statusCode(201);

        // The cost of the bundle for a job without a typed script: its ConfigMap, one call.
        assertThat(LaunchCallsTest.callsIn(server, ns))
                .isEqualTo(Map.of("POST sparkapplications", 1, "POST configmaps", 1));
        GenericKubernetesResource app = application(kube, ns, "etl");
        LaunchTest.APPLICATIONS.assertValid(app);
        ConfigMap certs = kube.configMaps().inNamespace(ns).withName("sparkjob-etl").get();
        assertThat(certs.getData()).isEqualTo(Map.of("ca-1.crt", TestCa.certificates().get(0)));
        assertThat(certs.getMetadata().getOwnerReferences().get(0).getUid()).isEqualTo(app.getMetadata().getUid());
        JsonNode spec = Api.JSON.valueToTree(app.getAdditionalProperties().get("spec"));
        for (String role : List.of("driver", "executor")) {
            assertThat(spec.path("sparkConf").path("spark." + role + ".extraJavaOptions").asText())
                    .startsWith("-XX:+UseG1GC ").endsWith(" -Djavax.net.ssl.trustStore=/lakehouse/truststore/cacerts"
                            + " -Djavax.net.ssl.trustStoreType=PKCS12 -Djavax.net.ssl.trustStorePassword=changeit");
            JsonNode pod = spec.path(role).path("template").path("spec");
            // A jar is fetched by executors too: truststore and PEM file from the job's image, then the clone.
            List<String> inits = new ArrayList<>();
            pod.path("initContainers").forEach(c -> inits.add(c.path("name").asText()));
            assertThat(inits).containsExactly("ca-truststore", "ca-bundle", "fetch-code");
            assertThat(pod.path("initContainers").get(0).path("image").asText()).isEqualTo("apache/spark:3.5.3");
            assertThat(pod.path("initContainers").get(2).path("env").toString())
                    .contains("{\"name\":\"GIT_SSL_CAINFO\",\"value\":\"/lakehouse/truststore/ca-bundle.pem\"}");
            assertThat(pod.path("volumes").toString()).contains("\"name\":\"sparkjob-etl\"");
            assertThat(pod.path("containers").get(0).path("volumeMounts").toString())
                    .contains("{\"mountPath\":\"/lakehouse/truststore\",\"name\":\"truststore\",\"readOnly\":true}");
        }
    }

    @Test
    void aScriptKeepsOneConfigMapWithItsCodeAndTheCertificates() throws InterruptedException {
        String ns = Callers.freshNamespace();
        String form = "{\"name\":\"%s\",\"image\":\"apache/spark:3.5.3\","
                + "\"source\":{\"type\":\"script\",\"script\":\"print(1)\\n\"}}";
        asAdmin().body(String.format(form, "first")).post(jobs(ns)).then().statusCode(201);
        LaunchCallsTest.awaitAccountCached(cache, ns, true);
        LaunchCallsTest.drain(server);

        asAdmin().body(String.format(form, "hello")).post(jobs(ns)).then().statusCode(201);

        assertThat(LaunchCallsTest.callsIn(server, ns))
                .isEqualTo(Map.of("POST sparkapplications", 1, "POST configmaps", 1));
        assertThat(kube.configMaps().inNamespace(ns).withName("sparkjob-hello").get().getData())
                .containsOnlyKeys("main.py", "ca-1.crt");
        JsonNode driver = Api.JSON.valueToTree(application(kube, ns, "hello").getAdditionalProperties().get("spec"))
                .path("driver").path("template").path("spec");
        // The code volume holds only the script, the bundle's only the certificates.
        assertThat(driver.path("volumes").toString()).contains(
                "{\"configMap\":{\"items\":[{\"key\":\"main.py\",\"path\":\"main.py\"}],\"name\":\"sparkjob-hello\"}",
                "{\"configMap\":{\"items\":[{\"key\":\"ca-1.crt\",\"path\":\"ca-1.crt\"}],\"name\":\"sparkjob-hello\"}");
    }

    @Test
    void jvmOptionsThatCouldSwallowTheBundlesAreRefusedAndNothingIsMade() {
        String ns = Callers.freshNamespace();
        ObjectNode form = gitForm("quoted");
        ((ObjectNode) form.path("sparkConf")).put("spark.executor.extraJavaOptions", "-Dgreeting=\"hello");

        asAdmin().body(form.toString()).post(jobs(ns)).then().statusCode(422)
                .body("errors[0].field", equalTo("sparkConf.spark.executor.extraJavaOptions"));
        assertThat(application(kube, ns, "quoted")).isNull();
        assertThat(kube.configMaps().inNamespace(ns).withName("sparkjob-quoted").get()).isNull();
    }

    @Test
    void aScheduleOfAGitJobHasTheConfigMapItsRunsMountOwnedByIt() {
        String ns = Callers.freshNamespace();
        ObjectNode schedule = ScheduleTest.scheduleForm("nightly", "0 3 * * *", "UTC", "Forbid");
        schedule.set("job", gitForm(null));

        asAdmin().body(schedule.toString()).post(ScheduleTest.schedules(ns)).then().statusCode(201);

        GenericKubernetesResource scheduled = kube.genericKubernetesResources(SparkResources.SCHEDULES)
                .inNamespace(ns).withName("nightly").get();
        ScheduleTest.SCHEDULED.assertValid(scheduled);
        ConfigMap certs = kube.configMaps().inNamespace(ns).withName("sparkjob-nightly").get();
        assertThat(certs.getData()).containsOnlyKeys("ca-1.crt");
        assertThat(certs.getMetadata().getOwnerReferences().get(0).getUid())
                .isEqualTo(scheduled.getMetadata().getUid());
        JsonNode template = Api.JSON.valueToTree(scheduled.getAdditionalProperties().get("spec")).path("template");
        assertThat(template.path("driver").path("template").path("spec").path("volumes").toString())
                .contains("\"name\":\"sparkjob-nightly\"");
    }

    /** A jar cloned from Git without a token, with JVM options of its own. */
    private static ObjectNode gitForm(String name) {
        ObjectNode form = Api.JSON.createObjectNode().put("image", "apache/spark:3.5.3")
                .put("mainClass", "com.example.Etl");
        if (name != null) {
            form.put("name", name);
        }
        form.putObject("source").put("type", "git").put("repository", "https://forgejo.internal.example/team/etl.git")
                .put("path", "build/etl.jar");
        form.putObject("sparkConf").put("spark.driver.extraJavaOptions", "-XX:+UseG1GC")
                .put("spark.executor.extraJavaOptions", "-XX:+UseG1GC");
        return form;
    }
}
