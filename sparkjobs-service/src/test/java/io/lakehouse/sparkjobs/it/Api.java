package io.lakehouse.sparkjobs.it;

import static io.lakehouse.common.testing.Callers.as;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.events.EventType;
import io.lakehouse.common.events.LakehouseEvent;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.EventWriter;
import io.lakehouse.sparkjobs.kube.SparkResources;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

/** Calls and fixtures as users and the other services make them. */
final class Api {

    static final Duration PROPAGATION = Duration.ofSeconds(30);
    static final ObjectMapper JSON = new ObjectMapper();
    /** lakehouse.cluster.image-pull-secret of the test stack. */
    static final String CLUSTER_PULL_SECRET = "cluster-registry";
    static final String SCRIPT = "from pyspark.sql import SparkSession\n"
            + "spark = SparkSession.builder.getOrCreate()\nspark.sql('SELECT 1').show()\n";

    private Api() {}

    static String jobs(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/spark-jobs";
    }

    /** A membership as access-service publishes it; waits until the service's projection has it. */
    static void grantRole(EventWriter writer, String namespace, String user, String role) {
        ObjectNode data = JSON.createObjectNode().put("namespace", namespace).put("subjectType", "user")
                .put("subject", user).put("role", role);
        writer.send(LakehouseEvent.of("/lakehouse/access-service", EventType.MEMBER_SET, namespace, data));
        await().atMost(PROPAGATION).until(() -> as(user).get(jobs(namespace)).statusCode() == 200);
    }

    /** The job profile engines-service publishes for a spark-connect instance (instance.ready). */
    static LakehouseEvent sparkConnectReady(String namespace, String name) {
        ObjectNode data = JSON.createObjectNode().put("namespace", namespace).put("kind", "spark-connect")
                .put("name", name).put("phase", "Ready").put("createdBy", "dora");
        ObjectNode profile = data.putObject("spec").put("catalog", "cat").putObject("profile")
                .put("image", "apache/spark:4.0.1-scala2.13-java21-python3-ubuntu").putNull("pullSecret");
        profile.putObject("sparkConf")
                .put("spark.sql.defaultCatalog", "lakehouse")
                .put("spark.sql.catalog.lakehouse", "org.apache.iceberg.spark.SparkCatalog")
                .put("spark.sql.catalog.lakehouse.warehouse", "cat")
                .put("spark.jars.packages", "org.apache.iceberg:iceberg-spark-runtime-4.0_2.13:1.10.1");
        ArrayNode env = profile.putArray("secretEnv");
        env.addObject().put("name", "CATALOG_URI").put("secret", "cat-root").put("key", "catalogUri");
        env.addObject().put("name", "CATALOG_CLIENT_ID").put("secret", "cat-root").put("key", "clientId");
        env.addObject().put("name", "CATALOG_CLIENT_SECRET").put("secret", "cat-root").put("key", "clientSecret");
        env.addObject().put("name", "AWS_ACCESS_KEY_ID").put("secret", "warehouse").put("key", "AWS_ACCESS_KEY_ID");
        env.addObject().put("name", "AWS_SECRET_ACCESS_KEY").put("secret", "warehouse")
                .put("key", "AWS_SECRET_ACCESS_KEY");
        profile.putObject("sparkConfFromEnv")
                .put("spark.sql.catalog.lakehouse.uri", "${CATALOG_URI}")
                .put("spark.sql.catalog.lakehouse.credential", "${CATALOG_CLIENT_ID}:${CATALOG_CLIENT_SECRET}");
        return LakehouseEvent.of("/lakehouse/engines-service", EventType.INSTANCE_READY,
                LakehouseEvent.instanceSubject(namespace, "spark-connect", name), data);
    }

    /**
     * Publishes a profile and waits until the service knows it: a probe setting one of the profile's
     * properties is refused for that reason (and, like every refused launch, creates nothing).
     */
    static void publishProfile(EventWriter writer, String namespace, String name) {
        writer.send(sparkConnectReady(namespace, name));
        await().atMost(PROPAGATION).until(() -> Callers.asAdmin()
                .body("{\"profile\":\"" + name + "\",\"source\":{\"type\":\"script\",\"script\":\"x\"},"
                        + "\"name\":\"probe\",\"sparkConf\":{\"spark.jars.packages\":\"x\"}}")
                .post(jobs(namespace)).asString().contains("is set by the profile"));
    }

    static ObjectNode scriptForm(String name, String profile) {
        ObjectNode form = JSON.createObjectNode();
        if (name != null) {
            form.put("name", name);
        }
        form.put("profile", profile);
        form.putObject("source").put("type", "script").put("script", SCRIPT);
        return form;
    }

    static GenericKubernetesResource application(KubernetesClient kube, String namespace, String name) {
        return kube.genericKubernetesResources(SparkResources.APPLICATIONS).inNamespace(namespace).withName(name).get();
    }

    /** A namespace bucket Secret as the platform writes it. */
    static void bucketSecret(KubernetesClient kube, String namespace, String name, String secretKey) {
        kube.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName(name)
                .withNamespace(namespace).withLabels(Map.of("lakehouse.io/bucket", "true"))
                .withAnnotations(Map.of("lakehouse.io/bucket-name", "raw-data", "lakehouse.io/endpoint",
                        "http://minio.storage.svc:9000", "lakehouse.io/region", "us-east-1"))
                .endMetadata()
                .withData(Map.of("AWS_ACCESS_KEY_ID", b64("AKIA-TEST"), "AWS_SECRET_ACCESS_KEY", b64(secretKey)))
                .build()).create();
    }

    static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
