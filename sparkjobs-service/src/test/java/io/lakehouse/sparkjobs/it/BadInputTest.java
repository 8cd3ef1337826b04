package io.lakehouse.sparkjobs.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.sparkjobs.it.Api.jobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.sparkjobs.kube.SparkResources;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The bad-input corpus: each a clear 4xx problem, and nothing stored or created. */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = SparkCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class BadInputTest {

    private static final String IMAGE = "\"image\":\"apache/spark:3.5.3\"";
    private static final String SCRIPT = "\"source\":{\"type\":\"script\",\"script\":\"print(1)\"}";

    @Inject
    KubernetesClient kube;

    static Stream<Arguments> corpus() {
        String big = "x".repeat(262_145);
        String s3 = "\"source\":{\"type\":\"s3\",\"bucket\":\"raw\",\"path\":\"%s\"}";
        String git = "\"source\":{\"type\":\"git\",\"repository\":\"%s\",\"branch\":\"%s\",\"path\":\"a.py\"}";
        return Stream.of(
                bad("{" + IMAGE + ",\"name\":\"Upper\"," + SCRIPT + "}", "name"),
                bad("{" + IMAGE + ",\"name\":\"1starts-with-digit\"," + SCRIPT + "}", "name"),
                bad("{" + IMAGE + ",\"name\":\"" + "a".repeat(50) + "\"," + SCRIPT + "}", "name"),
                bad("{" + SCRIPT + "}", "profile"),
                bad("{" + IMAGE + ",\"profile\":\"spark\"," + SCRIPT + "}", "profile"),
                bad("{\"image\":\"bad image; rm -rf /\"," + SCRIPT + "}", "image"),
                bad("{" + IMAGE + "}", "source.type"),
                bad("{" + IMAGE + ",\"source\":{\"type\":\"ftp\"}}", "source.type"),
                bad("{" + IMAGE + ",\"source\":{\"type\":\"script\",\"script\":\"" + big + "\"}}", "source.script"),
                bad("{" + IMAGE + ",\"source\":{\"type\":\"script\",\"script\":\"  \"}}", "source.script"),
                bad("{" + IMAGE + "," + s3.formatted("../etc/passwd.py") + "}", "source.path"),
                bad("{" + IMAGE + "," + s3.formatted("/abs/job.py") + "}", "source.path"),
                bad("{" + IMAGE + "," + s3.formatted("-rf.py") + "}", "source.path"),
                bad("{" + IMAGE + "," + s3.formatted("job.py; rm -rf /") + "}", "source.path"),
                bad("{" + IMAGE + "," + s3.formatted("job.sh") + "}", "source.path"),
                bad("{" + IMAGE + "," + git.formatted("https://forgejo.example/a.git", "--upload-pack=touch /tmp/x")
                        + "}", "source.branch"),
                bad("{" + IMAGE + "," + git.formatted("https://forgejo.example/a.git", "main/../../x") + "}",
                        "source.branch"),
                bad("{" + IMAGE + "," + git.formatted("-ohttps://x", "main") + "}", "source.repository"),
                bad("{" + IMAGE + "," + git.formatted("file:///etc", "main") + "}", "source.repository"),
                bad("{" + IMAGE + "," + git.formatted("https://user:pw@forgejo.example/a.git", "main") + "}",
                        "source.repository"),
                bad("{" + IMAGE + ",\"mainClass\":\"com.example.Main\"," + SCRIPT + "}", "mainClass"),
                bad("{" + IMAGE + "," + SCRIPT + ",\"driver\":{\"cores\":0}}", "driver.cores"),
                bad("{" + IMAGE + "," + SCRIPT + ",\"driver\":{\"memory\":\"1TB\"}}", "driver.memory"),
                bad("{" + IMAGE + "," + SCRIPT + ",\"executor\":{\"instances\":0}}", "executor.instances"),
                bad("{" + IMAGE + "," + SCRIPT + ",\"arguments\":[\"$(CATALOG_CLIENT_SECRET)\"]}", "arguments[0]"),
                bad("{" + IMAGE + "," + SCRIPT + ",\"arguments\":[\"a\\nb\"]}", "arguments[0]"),
                bad("{" + IMAGE + "," + SCRIPT + ",\"sparkConf\":{\"hadoop.fs.x\":\"1\"}}", "sparkConf.hadoop.fs.x"),
                bad("{" + IMAGE + "," + SCRIPT + ",\"sparkConf\":{\"spark.master\":\"local\"}}", "sparkConf.spark.master"),
                bad("{" + IMAGE + "," + SCRIPT + ",\"sparkConf\":{\"spark.kubernetes.container.image\":\"x\"}}",
                        "sparkConf.spark.kubernetes.container.image"),
                bad("{" + IMAGE + "," + SCRIPT + ",\"sparkConf\":{\"spark.executor.memory\":\"9g\"}}",
                        "sparkConf.spark.executor.memory"),
                bad("{" + IMAGE + "," + SCRIPT + ",\"ttlHours\":0}", "ttlHours"),
                bad("{\"profile\":\"nothing-here\"," + SCRIPT + "}", "profile"));
    }

    private static Arguments bad(String body, String field) {
        return Arguments.of(body, field);
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void isRefusedWith422AndNothingIsCreated(String body, String field) {
        String ns = Callers.freshNamespace();
        asAdmin().body(body).post(jobs(ns)).then().statusCode(422)
                .contentType("application/problem+json")
                .body("errors.field", hasItem(field));
        assertNothing(ns);
    }

    @org.junit.jupiter.api.Test
    void malformedBodiesAre400() {
        String ns = Callers.freshNamespace();
        asAdmin().body("{\"image\":").post(jobs(ns)).then().statusCode(400);
        asAdmin().body("{" + IMAGE + "," + SCRIPT + ",\"unknownField\":1}").post(jobs(ns)).then().statusCode(400);
        asAdmin().get("/api/v1/namespaces/Bad_NS/spark-jobs").then().statusCode(400);
        asAdmin().get(jobs(ns) + "?limit=0").then().statusCode(422).body("errors[0].field", equalTo("limit"));
        assertNothing(ns);
    }

    private void assertNothing(String ns) {
        assertThat(kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(ns).list().getItems())
                .isEmpty();
        assertThat(kube.configMaps().inNamespace(ns).list().getItems()).isEmpty();
        assertThat(kube.serviceAccounts().inNamespace(ns).list().getItems()).isEmpty();
        asAdmin().get(jobs(ns)).then().statusCode(200).body("items", equalTo(List.of()));
    }
}
