package io.lakehouse.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakehouse.common.metrics.LakehouseMetrics;
import io.lakehouse.common.testing.CrdSchemas;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * helm lint and helm template of deploy/helm/lakehouse with the default values ("") and the production
 * values: what an API server would refuse or silently drop, read before any cluster sees it.
 */
class ChartRenderTest {

    /** The custom resources the chart may render, and the upstream CRD each must satisfy. */
    private static final Map<String, String> CRDS = Map.of(
            "postgresql.cnpg.io/v1/Cluster", "postgresql.cnpg.io_clusters.yaml",
            "kafka.strimzi.io/v1/Kafka", "kafka.strimzi.io_kafkas.yaml",
            "kafka.strimzi.io/v1/KafkaNodePool", "kafka.strimzi.io_kafkanodepools.yaml",
            "kafka.strimzi.io/v1/KafkaTopic", "kafka.strimzi.io_kafkatopics.yaml",
            "monitoring.coreos.com/v1/ServiceMonitor", "monitoring.coreos.com_servicemonitors.yaml",
            "monitoring.coreos.com/v1/PrometheusRule", "monitoring.coreos.com_prometheusrules.yaml");

    private static final String PRODUCTION = "values-production.yaml";

    private static final String[] SERVICES = {"access-service", "catalog-service", "engines-service", "notebooks-service",
            "sparkjobs-service"};

    @ParameterizedTest
    @ValueSource(strings = {"", PRODUCTION})
    void lintPasses(String values) {
        Helm.Result r = values.isEmpty() ? Helm.lint() : Helm.lint(values);
        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", PRODUCTION})
    void everyRenderedObjectIsValidForItsApi(String values) {
        List<String> problems = new ArrayList<>();
        for (JsonNode doc : docs(values)) {
            String crd = CRDS.get(doc.path("apiVersion").asText() + "/" + doc.path("kind").asText());
            if (crd != null) {
                crdSchemas(crd).validate(doc).forEach(p -> problems.add(name(doc) + ": " + p));
            } else {
                problems.addAll(StrictManifests.unknownFields(doc));
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void defaultsInstallTheFiveServicesWithExternalDependencies() {
        assertThat(kinds(docs(""))).isEqualTo(new TreeSet<>(List.of("ClusterRole", "ClusterRoleBinding", "Deployment",
                "Secret", "Service", "ServiceAccount")));
        assertThat(named(docs(""), "Deployment")).containsExactly(SERVICES);
    }

    @Test
    void productionRunsTwoReplicasBehindBudgetsOnClusteredDependencies() {
        List<JsonNode> docs = docs(PRODUCTION);
        Map<String, Integer> replicas = new TreeMap<>();
        of(docs, "Deployment").forEach(d -> replicas.put(name(d), d.path("spec").path("replicas").asInt()));
        assertThat(replicas).isEqualTo(Map.of("Deployment/access-service", 2, "Deployment/catalog-service", 2,
                "Deployment/engines-service", 2, "Deployment/notebooks-service", 2, "Deployment/sparkjobs-service", 2));
        assertThat(named(docs, "PodDisruptionBudget")).containsExactly(SERVICES);
        assertThat(kinds(docs)).contains("Cluster", "Kafka", "KafkaNodePool", "KafkaTopic", "ServiceMonitor", "PrometheusRule");
        JsonNode cluster = of(docs, "Cluster").get(0);
        assertThat(cluster.path("spec").path("instances").asInt()).isEqualTo(3);
        assertThat(cluster.path("spec").path("enablePDB").asBoolean()).isTrue();
        // Every topic with its dead-letter topic, as deploy/local's broker has them.
        assertThat(of(docs, "KafkaTopic").stream().map(t -> t.path("spec").path("topicName").asText()).sorted().toList())
                .containsExactly("lakehouse.access", "lakehouse.access.dlq", "lakehouse.audit", "lakehouse.audit.dlq",
                        "lakehouse.instances", "lakehouse.instances.dlq", "lakehouse.sparkjobs", "lakehouse.sparkjobs.dlq");
    }

    /** An alert on a metric nobody exports never fires: every lakehouse_* name must be one of common's. */
    @Test
    void alertsReadTheMetricsTheServicesExport() throws IllegalAccessException {
        List<String> exported = new ArrayList<>();
        for (java.lang.reflect.Field f : LakehouseMetrics.class.getFields()) {
            exported.add(((String) f.get(null)).replace('.', '_'));
        }
        JsonNode rule = of(docs(PRODUCTION), "PrometheusRule").get(0);
        List<String> used = new ArrayList<>();
        for (JsonNode r : rule.path("spec").path("groups").get(0).path("rules")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("lakehouse_[a-z_]+").matcher(r.path("expr").asText());
            while (m.find()) {
                used.add(m.group());
            }
        }
        assertThat(used).hasSize(4).allSatisfy(name -> assertThat(exported).anyMatch(name::startsWith));
    }

    /**
     * The cluster settings reach the services under the names their code reads (SparkJobSettings' env
     * names, NotebookSettings' lakehouse.notebooks.*); left empty, the services keep their own defaults.
     */
    @Test
    void imageSettingsReachTheServicesThatReadThem() {
        assertThat(env(docs(PRODUCTION), "sparkjobs-service")).containsAllEntriesOf(Map.of(
                "SPARK_JOB_GIT_IMAGE", "registry.example.com/mirror/alpine/git:2.47.2",
                "SPARK_JOB_S3_IMAGE", "registry.example.com/mirror/amazon/aws-cli:2.22.35"));
        assertThat(env(docs(PRODUCTION), "notebooks-service")).containsAllEntriesOf(Map.of(
                "LAKEHOUSE_NOTEBOOKS_DEFAULT_IMAGE", "registry.example.com/lakehouse/jupyter-datastack",
                "LAKEHOUSE_NOTEBOOKS_DEFAULT_VERSION", "2026.12",
                "LAKEHOUSE_NOTEBOOKS_IMAGES_HUB", "registry.example.com/mirror/jupyterhub/k8s-hub:4.4.0",
                "LAKEHOUSE_NOTEBOOKS_IMAGES_PROXY", "registry.example.com/mirror/jupyterhub/configurable-http-proxy:5.2.0",
                "LAKEHOUSE_NOTEBOOKS_SIGN_IN_URL", "https://login.lakehouse.example.com/oauth2/start",
                "LAKEHOUSE_NOTEBOOKS_FORWARD_AUTH_URL", "http://access-service.lakehouse-system.svc:8085/api/v1/authz"));
        assertThat(env(docs(""), "sparkjobs-service")).doesNotContainKeys("SPARK_JOB_GIT_IMAGE", "SPARK_JOB_S3_IMAGE");
        assertThat(env(docs(""), "notebooks-service")).doesNotContainKeys("LAKEHOUSE_NOTEBOOKS_DEFAULT_IMAGE",
                "LAKEHOUSE_NOTEBOOKS_DEFAULT_VERSION", "LAKEHOUSE_NOTEBOOKS_IMAGES_HUB", "LAKEHOUSE_NOTEBOOKS_IMAGES_PROXY");
    }

    /**
     * One pull secret for every pod the suite creates (common's lakehouse.cluster.image-pull-secret, read by
     * every service), the S3 checksum setting likewise, and cluster.images split by who reads them: the engines' images under
     * lakehouse.engines.images.*, the others under lakehouse.cluster.images.*.
     */
    @Test
    void pullSecretAndComponentImagesReachTheServicesThatReadThem() {
        for (String service : SERVICES) {
            assertThat(env(docs(PRODUCTION), service)).as(service)
                    .containsEntry("LAKEHOUSE_CLUSTER_IMAGE_PULL_SECRET", "registry-credentials")
                    .containsEntry("LAKEHOUSE_CLUSTER_S3_CHECKSUM_WHEN_REQUIRED", "true")
                    .containsEntry("LAKEHOUSE_CLUSTER_IMAGES_POLARIS", "registry.example.com/mirror/apache/polaris:1.7.0")
                    .containsEntry("LAKEHOUSE_CLUSTER_IMAGES_POLARIS_ADMIN_TOOL",
                            "registry.example.com/mirror/apache/polaris-admin-tool:1.7.0")
                    .doesNotContainKeys("LAKEHOUSE_CLUSTER_IMAGES_TRINO", "LAKEHOUSE_CLUSTER_IMAGES_MLFLOW");
            assertThat(env(docs(""), service)).as(service).doesNotContainKeys("LAKEHOUSE_CLUSTER_IMAGE_PULL_SECRET",
                    "LAKEHOUSE_CLUSTER_S3_CHECKSUM_WHEN_REQUIRED");
        }
        assertThat(env(docs(PRODUCTION), "engines-service")).containsAllEntriesOf(Map.of(
                "LAKEHOUSE_ENGINES_IMAGES_TRINO", "registry.example.com/mirror/trinodb/trino:480",
                "LAKEHOUSE_ENGINES_IMAGES_MLFLOW", "registry.example.com/mirror/mlflow/mlflow:v3.9.0-full"));
        assertThat(env(docs(PRODUCTION), "catalog-service")).doesNotContainKey("LAKEHOUSE_ENGINES_IMAGES_TRINO");
    }

    /**
     * cluster.caBundle reaches every service as lakehouse.cluster.ca-bundle: the PEM text itself (a new one
     * restarts them on upgrade) or a reference to a ConfigMap of the release namespace; unset, nothing.
     */
    @Test
    void theCaBundleReachesEveryServiceAsTextOrConfigMapReference() {
        String pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
        List<JsonNode> inline = StrictManifests.documents(Helm.template("--set", "cluster.caBundle.pem=" + pem)
                .requireSuccess(List.of("--set cluster.caBundle.pem")).out());
        for (String service : SERVICES) {
            assertThat(env(inline, service)).as(service).containsEntry("LAKEHOUSE_CLUSTER_CA_BUNDLE", pem);
            assertThat(envEntry(docs(PRODUCTION), service, "LAKEHOUSE_CLUSTER_CA_BUNDLE").path("valueFrom")
                    .path("configMapKeyRef").toString()).as(service)
                    .isEqualTo("{\"name\":\"company-root-ca\",\"key\":\"ca.crt\"}");
            assertThat(envEntry(docs(""), service, "LAKEHOUSE_CLUSTER_CA_BUNDLE").isMissingNode()).as(service).isTrue();
        }
    }

    /**
     * Spark Connect runs by default on the image deploy/images/spark-iceberg builds (Iceberg jars inside), from
     * the release's registry; Spark downloads packages at start only when cluster.sparkPackages names some.
     */
    @Test
    void sparkConnectDefaultsToTheIcebergImageAndDownloadsNothingUnlessAsked() {
        assertThat(env(docs(""), "engines-service"))
                .containsEntry("LAKEHOUSE_ENGINES_IMAGES_SPARK_CONNECT", "ghcr.io/example/spark-iceberg:4.0.1-iceberg1.10.1")
                .doesNotContainKey("LAKEHOUSE_ENGINES_SPARK_PACKAGES");
        List<JsonNode> plain = StrictManifests.documents(Helm.template("--set",
                "cluster.images.sparkConnect=apache/spark:4.0.1-scala2.13-java21-python3-ubuntu", "--set",
                "cluster.sparkPackages=org.apache.iceberg:iceberg-aws-bundle:1.10.1").requireSuccess(List.of()).out());
        assertThat(env(plain, "engines-service"))
                .containsEntry("LAKEHOUSE_ENGINES_IMAGES_SPARK_CONNECT", "apache/spark:4.0.1-scala2.13-java21-python3-ubuntu")
                .containsEntry("LAKEHOUSE_ENGINES_SPARK_PACKAGES", "org.apache.iceberg:iceberg-aws-bundle:1.10.1");
        assertThat(Helm.CHART.resolve("../../images/spark-iceberg/Dockerfile")).exists();
    }

    private static JsonNode envEntry(List<JsonNode> docs, String deployment, String name) {
        for (JsonNode d : of(docs, "Deployment")) {
            if (deployment.equals(d.path("metadata").path("name").asText())) {
                for (JsonNode e : d.path("spec").path("template").path("spec").path("containers").get(0).path("env")) {
                    if (name.equals(e.path("name").asText())) {
                        return e;
                    }
                }
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    /** A Deployment whose image nobody can build never starts: each service has its Dockerfile, on its port. */
    @Test
    void everyDeployedServiceHasItsDockerfile() throws java.io.IOException {
        java.nio.file.Path repo = Helm.CHART.resolve("../../..").normalize();
        for (JsonNode d : of(docs(""), "Deployment")) {
            String module = d.path("metadata").path("name").asText();
            java.nio.file.Path file = repo.resolve(module).resolve("src/main/docker/Dockerfile.jvm");
            assertThat(file).as(module).exists();
            int port = d.path("spec").path("template").path("spec").path("containers").get(0).path("ports").get(0)
                    .path("containerPort").asInt();
            assertThat(java.nio.file.Files.readString(file)).as(module).contains("EXPOSE " + port, "-pl " + module + " ");
        }
    }

    @Test
    void aSingleDatabaseInstanceHasNoBudgetThatWouldBlockDrains() {
        String yaml = Helm.template("--set", "postgresql.mode=cnpg").requireSuccess(List.of("--set postgresql.mode=cnpg")).out();
        JsonNode cluster = of(StrictManifests.documents(yaml), "Cluster").get(0);
        assertThat(cluster.path("spec").path("instances").asInt()).isEqualTo(1);
        assertThat(cluster.path("spec").path("enablePDB").asBoolean()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", PRODUCTION})
    void podsFollowTheRestrictedPodSecurityStandard(String values) {
        for (JsonNode d : of(docs(values), "Deployment")) {
            JsonNode pod = d.path("spec").path("template").path("spec");
            assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean()).as(name(d)).isTrue();
            assertThat(pod.path("securityContext").path("seccompProfile").path("type").asText()).as(name(d)).isEqualTo("RuntimeDefault");
            for (JsonNode c : pod.path("containers")) {
                JsonNode sc = c.path("securityContext");
                assertThat(sc.path("allowPrivilegeEscalation").asBoolean(true)).as(name(d)).isFalse();
                assertThat(sc.path("readOnlyRootFilesystem").asBoolean()).as(name(d)).isTrue();
                assertThat(sc.path("capabilities").path("drop").toString()).as(name(d)).isEqualTo("[\"ALL\"]");
                assertThat(List.of(c.path("startupProbe").path("httpGet").path("path").asText(),
                        c.path("livenessProbe").path("httpGet").path("path").asText(),
                        c.path("readinessProbe").path("httpGet").path("path").asText()))
                        .as(name(d)).containsExactly("/q/health/started", "/q/health/live", "/q/health/ready");
                // On the management interface, never the API port an Ingress may expose.
                assertThat(List.of(c.path("startupProbe").path("httpGet").path("port").asText(),
                        c.path("livenessProbe").path("httpGet").path("port").asText(),
                        c.path("readinessProbe").path("httpGet").path("port").asText()))
                        .as(name(d)).containsOnly("management");
            }
        }
    }

    @Test
    void aServiceEnabledWithoutItsRbacRulesIsRefusedByName() {
        Helm.Result r = Helm.template("--set", "services.reports.enabled=true", "--set", "services.reports.port=8086");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.err()).contains("services.reports is enabled but files/rbac/reports.yaml (its ClusterRole rules) is missing");
    }

    @Test
    void unknownDependencyModesAreRefused() {
        Helm.Result r = Helm.template("--set", "kafka.mode=zookeeper");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.err()).contains("kafka.mode must be external or strimzi, not \"zookeeper\"");
    }

    /** The strict reading must itself catch what a real API server would refuse (else it proves nothing). */
    @Test
    void strictReadingReportsFieldsTheApiDoesNotKnow() {
        JsonNode typo = StrictManifests.documents("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: x}
                spec:
                  replica: 2
                  selector: {matchLabels: {a: b}}
                  template:
                    metadata: {labels: {a: b}}
                    spec:
                      containers:
                        - {name: c, image: i, livenessProbe: {httpGet: {path: /, port: 80, scheme2: HTTP}}}
                """).get(0);
        assertThat(StrictManifests.unknownFields(typo)).containsExactlyInAnyOrder(
                "Deployment/x: unknown field spec.replica",
                "Deployment/x: unknown field spec.template.spec.containers[0].livenessProbe.httpGet.scheme2");
    }

    /** The services' CRDs in deploy/crds; the chart's own (Strimzi, Prometheus Operator) in deploy/chart-check/crds. */
    private static CrdSchemas crdSchemas(String file) {
        java.nio.file.Path own = java.nio.file.Path.of("crds", file);
        return java.nio.file.Files.exists(own) ? CrdSchemas.load(own) : CrdSchemas.named(file);
    }

    private static List<JsonNode> docs(String values) {
        return StrictManifests.documents(values.isEmpty() ? Helm.render() : Helm.render(values));
    }

    /** The plain (name, value) environment variables of a service's container. */
    private static Map<String, String> env(List<JsonNode> docs, String deployment) {
        Map<String, String> env = new TreeMap<>();
        of(docs, "Deployment").stream().filter(d -> deployment.equals(d.path("metadata").path("name").asText()))
                .forEach(d -> d.path("spec").path("template").path("spec").path("containers").get(0).path("env")
                        .forEach(e -> {
                            if (e.has("value")) {
                                env.put(e.path("name").asText(), e.path("value").asText());
                            }
                        }));
        assertThat(env).as("env of Deployment/" + deployment).isNotEmpty();
        return env;
    }

    static List<JsonNode> of(List<JsonNode> docs, String kind) {
        return docs.stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
    }

    private static List<String> named(List<JsonNode> docs, String kind) {
        return of(docs, kind).stream().map(d -> d.path("metadata").path("name").asText()).sorted().toList();
    }

    private static TreeSet<String> kinds(List<JsonNode> docs) {
        TreeSet<String> kinds = new TreeSet<>();
        docs.forEach(d -> kinds.add(d.path("kind").asText()));
        return kinds;
    }

    private static String name(JsonNode doc) {
        return doc.path("kind").asText() + "/" + doc.path("metadata").path("name").asText();
    }
}
