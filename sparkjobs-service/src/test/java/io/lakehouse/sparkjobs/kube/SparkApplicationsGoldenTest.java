package io.lakehouse.sparkjobs.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lakehouse.common.instances.CaBundle;
import io.lakehouse.common.kube.BucketSecrets;
import io.lakehouse.common.testing.CrdSchemas;
import io.lakehouse.common.testing.GoldenYaml;
import io.lakehouse.common.testing.TestCa;
import io.lakehouse.sparkjobs.config.SparkJobSettings;
import io.lakehouse.sparkjobs.domain.JobProfile;
import io.lakehouse.sparkjobs.domain.LaunchForm;
import io.lakehouse.sparkjobs.domain.LaunchRules;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of job's SparkApplication (and a schedule's ScheduledSparkApplication) against
 * {@code src/test/resources/golden/sparkjobs/<case>.yaml}, each valid against the operator's v2.5.2 CRDs.
 * After an intended change, regenerate with {@code -Dgolden.update=true} and review the diff.
 */
class SparkApplicationsGoldenTest {

    private static final CrdSchemas APPLICATIONS = CrdSchemas.named("sparkoperator.k8s.io_sparkapplications.yaml");
    private static final CrdSchemas SCHEDULED =
            CrdSchemas.named("sparkoperator.k8s.io_scheduledsparkapplications.yaml");
    private static final String MANAGED_BY = "sparkjobs-service";
    private static final JobPlan.ClusterPods PLAIN_CLUSTER = new JobPlan.ClusterPods(null, false, List.of());
    private static final JobPlan.ClusterPods MIRRORED_CLUSTER =
            new JobPlan.ClusterPods("cluster-registry", true, List.of());
    /** A cluster with a private CA bundle of two certificates (the same one twice: one file each). */
    private static final JobPlan.ClusterPods CA_CLUSTER = new JobPlan.ClusterPods(null, false,
            CaBundle.certificates(TestCa.PEM + TestCa.PEM));

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("script-on-image", plan(form("hello", null, "apache/spark:3.5.3", null,
                        script(), null, List.of(), Map.of()), JobProfile.image("apache/spark:3.5.3", null), null,
                        null, PLAIN_CLUSTER)),
                Arguments.of("script-on-profile", plan(form("daily-load", "spark", null, null, script(), null,
                        List.of("--day", "2026-12-01"), Map.of("spark.sql.shuffle.partitions", "8")),
                        profile(), null, null, MIRRORED_CLUSTER)),
                Arguments.of("s3-with-endpoint", plan(form("from-s3", "spark", null, null,
                        new LaunchForm.Source("s3", null, "raw", "jobs/etl.py", null, null, null), null, List.of(),
                        Map.of()), profile(), new BucketSecrets.Bucket("raw", "raw-data",
                        "http://minio.storage.svc:9000", "us-east-1", true, "raw"), null, MIRRORED_CLUSTER)),
                Arguments.of("s3-plain", plan(form("from-s3-plain", null, "registry.example/spark:4", "regcred",
                        new LaunchForm.Source("s3", null, "raw", "etl.py", null, null, null), null, List.of(),
                        Map.of()), JobProfile.image("registry.example/spark:4", "regcred"),
                        new BucketSecrets.Bucket("raw", "raw", null, null, true, "raw"), null, PLAIN_CLUSTER)),
                Arguments.of("git-with-token", plan(form("from-git", "spark", null, null,
                        new LaunchForm.Source("git", null, null, "jobs/main.py",
                                "https://forgejo.example/team/jobs.git", "release/1.2", "forgejo-token"), null,
                        List.of("--mode", "full run"), Map.of()), profile(), null, null, MIRRORED_CLUSTER)),
                Arguments.of("git-jar-scheduled", plan(form("nightly", null, "apache/spark:3.5.3", null,
                        new LaunchForm.Source("git", null, null, "target/app.jar",
                                "https://forgejo.example/team/app.git", null, null), "com.example.Main",
                        List.of(), Map.of()), JobProfile.image("apache/spark:3.5.3", null), null, "nightly",
                        PLAIN_CLUSTER)),
                // The CA bundle: a script (code and certificates in one ConfigMap, the user's JVM options kept
                // before the service's), an S3 and a Git source (a ConfigMap for the certificates alone, the
                // fetchers trusting the PEM file), a jar (executors fetch too).
                Arguments.of("ca-script", plan(form("hello-ca", "spark", null, null, script(), null, List.of(),
                        Map.of("spark.driver.extraJavaOptions", "-XX:+UseG1GC")), profile(), null, null,
                        CA_CLUSTER)),
                Arguments.of("ca-s3", plan(form("from-s3-ca", "spark", null, null,
                        new LaunchForm.Source("s3", null, "raw", "jobs/etl.py", null, null, null), null, List.of(),
                        Map.of()), profile(), new BucketSecrets.Bucket("raw", "raw-data",
                        "https://s3.internal.example", "us-east-1", true, "raw"), null, CA_CLUSTER)),
                Arguments.of("ca-git-jar-scheduled", plan(form("nightly-ca", null, "apache/spark:3.5.3", null,
                        new LaunchForm.Source("git", null, null, "target/app.jar",
                                "https://forgejo.internal.example/team/app.git", null, "forgejo-token"),
                        "com.example.Main", List.of(), Map.of()), JobProfile.image("apache/spark:3.5.3", null),
                        null, "nightly-ca", CA_CLUSTER)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theObjectsAreTheGoldenOnesAndValid(String name, JobPlan plan) {
        GenericKubernetesResource app = SparkApplications.of(plan, SETTINGS, MANAGED_BY);
        GenericKubernetesResource schedule = ScheduledApplications.of(plan, "0 3 * * *", "Europe/Paris", "Forbid",
                3, false, SETTINGS, MANAGED_BY);
        APPLICATIONS.assertValid(app);
        SCHEDULED.assertValid(schedule);
        List<JsonNode> trees = new ArrayList<>(List.of(GoldenYaml.tree(app), GoldenYaml.tree(schedule)));
        if (plan.hasConfigMap()) {
            trees.add(GoldenYaml.tree(SparkApplications.configMap(plan, MANAGED_BY)));
        }
        GoldenYaml.assertGolden("sparkjobs/" + name, """
                The SparkApplication, ScheduledSparkApplication and %s ConfigMap of case "%s".
                Generated by SparkApplicationsGoldenTest.""".formatted(plan.caCertificates().isEmpty() ? "script" : "job",
                name), trees);
    }

    /**
     * What building a launch's SparkApplication and writing it as the client sends it costs, in heap bytes (the
     * same on any machine, unlike time): 196 KB with fabric8's builders converted to a tree and back, 23 KB written
     * as a tree directly (2026-12-03). Measured after warm-up, so the JIT's own allocations stay out.
     */
    @Test
    void aSparkApplicationIsBuiltAndWrittenInUnder64KilobytesOfHeap() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        KubernetesSerialization serialization = new KubernetesSerialization();
        List<JobPlan> plans = cases().map(a -> (JobPlan) a.get()[1]).toList();
        int rounds = 3000;
        long bytes = 0;
        for (int warm = 0; warm < 2; warm++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < rounds; i++) {
                serialization.asJson(SparkApplications.of(plans.get(i % plans.size()), SETTINGS, MANAGED_BY));
            }
            bytes = (threads.getCurrentThreadAllocatedBytes() - before) / rounds;
        }
        assertThat(bytes).as("heap bytes per SparkApplication built and written").isLessThan(64 * 1024);
    }

    private static JobPlan plan(LaunchForm form, JobProfile profile, BucketSecrets.Bucket bucket, String schedule,
            JobPlan.ClusterPods cluster) {
        return new JobPlan("team-a", LaunchRules.normalize(form, form.name(), 168), profile, bucket, schedule, "dora",
                cluster);
    }

    private static LaunchForm form(String name, String profile, String image, String pullSecret,
            LaunchForm.Source source, String mainClass, List<String> arguments, Map<String, String> conf) {
        return new LaunchForm(name, profile, image, pullSecret, source, mainClass,
                new LaunchForm.Driver(2, "2g"), new LaunchForm.Executor(3, 2, "4g"), arguments, conf, null);
    }

    private static LaunchForm.Source script() {
        return new LaunchForm.Source("script", "print('hello')\n", null, null, null, null, null);
    }

    /** A spark-connect profile as engines-service publishes it: catalog properties, credentials by reference. */
    private static JobProfile profile() {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.sql.defaultCatalog", "lakehouse");
        conf.put("spark.sql.catalog.lakehouse", "org.apache.iceberg.spark.SparkCatalog");
        Map<String, String> fromEnv = new LinkedHashMap<>();
        fromEnv.put("spark.sql.catalog.lakehouse.uri", "${CATALOG_URI}");
        fromEnv.put("spark.sql.catalog.lakehouse.credential", "${CATALOG_CLIENT_ID}:${CATALOG_CLIENT_SECRET}");
        return new JobProfile("apache/spark:4.0.1", "spark-registry", conf, List.of(
                new JobProfile.SecretEnv("CATALOG_URI", "cat-root", "catalogUri"),
                new JobProfile.SecretEnv("CATALOG_CLIENT_ID", "cat-root", "clientId"),
                new JobProfile.SecretEnv("CATALOG_CLIENT_SECRET", "cat-root", "clientSecret")), fromEnv);
    }

    /** The settings' defaults. */
    private static final SparkJobSettings SETTINGS = new SparkJobSettings() {
        @Override
        public String sparkVersion() {
            return "4.0.1";
        }

        @Override
        public String serviceAccount() {
            return "spark";
        }

        @Override
        public int maxScriptBytes() {
            return 262144;
        }

        @Override
        public int defaultTtlHours() {
            return 168;
        }

        @Override
        public long runAsUser() {
            return 185;
        }

        @Override
        public Duration operatorAnswerTimeout() {
            return Duration.ofSeconds(60);
        }

        @Override
        public String s3Image() {
            return "amazon/aws-cli:2.22.35";
        }

        @Override
        public String gitImage() {
            return "alpine/git:2.47.2";
        }
    };
}
