package io.lakehouse.local;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The simulated cluster seen through a normal client, the way the services see it. */
class ClusterSimulatorTest {

  private static KubernetesClient client;
  private static KubernetesClient simulatorClient;
  private static ClusterSimulator simulator;
  private String namespace;

  @BeforeAll
  static void start() {
    client = Fixtures.server().newClient();
    simulatorClient = Fixtures.server().newClient();
    simulator = new ClusterSimulator(simulatorClient, Duration.ZERO, ClusterSimulator.GarbageCollection.BY_API)
        .failJobsNamed(name -> name.startsWith("failing-"))
        .failSparkApplicationsNamed(name -> name.startsWith("failing-"))
        .start();
  }

  @AfterAll
  static void stop() {
    simulator.close();
    simulatorClient.close();
    client.close();
  }

  @BeforeEach
  void namespace() {
    namespace = Fixtures.newNamespace(client);
  }

  @Test
  void deploymentBecomesAvailableAndFollowsItsSpec() {
    client.apps().deployments().inNamespace(namespace).resource(Fixtures.deployment("web", 2)).create();

    DeploymentStatus status = await().until(() -> deployment("web").getStatus(), s -> s != null);
    assertEquals(2, status.getReplicas());
    assertEquals(2, status.getReadyReplicas());
    assertEquals(2, status.getAvailableReplicas());
    assertEquals(2, status.getUpdatedReplicas());
    assertEquals(1L, status.getObservedGeneration());
    DeploymentCondition available = status.getConditions().stream()
        .filter(c -> "Available".equals(c.getType())).findFirst().orElseThrow();
    assertEquals("True", available.getStatus());
    assertEquals("MinimumReplicasAvailable", available.getReason());
    // The status update carried the status alone: the rest of the object is as the service wrote it.
    assertEquals(Fixtures.deployment("web", 2).getSpec(), deployment("web").getSpec());

    client.apps().deployments().inNamespace(namespace).withName("web").scale(3);

    await().until(() -> deployment("web").getStatus().getReadyReplicas() == 3);
    assertEquals(2L, deployment("web").getStatus().getObservedGeneration());
    assertEquals(available.getLastTransitionTime(), deployment("web").getStatus().getConditions().stream()
        .filter(c -> "Available".equals(c.getType())).findFirst().orElseThrow().getLastTransitionTime());
  }

  @Test
  void settledObjectsAreNotRewritten() {
    client.apps().deployments().inNamespace(namespace).resource(Fixtures.deployment("web", 1)).create();
    await().until(() -> deployment("web").getStatus() != null);
    String settled = deployment("web").getMetadata().getResourceVersion();

    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
        .until(() -> deployment("web").getMetadata().getResourceVersion(), settled::equals);
  }

  @Test
  void statefulSetBecomesReady() {
    client.apps().statefulSets().inNamespace(namespace).resource(new StatefulSetBuilder()
        .withNewMetadata().withName("kv").endMetadata()
        .withNewSpec().withReplicas(3).withServiceName("kv").endSpec()
        .build()).create();

    StatefulSetStatus status = await().until(
        () -> client.apps().statefulSets().inNamespace(namespace).withName("kv").get().getStatus(), s -> s != null);
    assertEquals(3, status.getReadyReplicas());
    assertEquals(3, status.getAvailableReplicas());
    assertEquals(3, status.getCurrentReplicas());
    assertEquals(1L, status.getObservedGeneration());
  }

  @Test
  void jobCompletes() {
    client.batch().v1().jobs().inNamespace(namespace).resource(job("init", 2)).create();

    JobStatus status = await().until(() -> job("init").getStatus(), s -> s != null);
    assertEquals(1, status.getSucceeded());
    assertNotNull(status.getStartTime());
    assertNotNull(status.getCompletionTime());
    assertEquals("True", condition(status.getConditions(), "Complete").getStatus());
    assertEquals("True", condition(status.getConditions(), "SuccessCriteriaMet").getStatus());
  }

  @Test
  void jobMatchedByTheFailurePredicateFails() {
    client.batch().v1().jobs().inNamespace(namespace).resource(job("failing-init", 2)).create();

    JobStatus status = await().until(() -> job("failing-init").getStatus(), s -> s != null);
    assertEquals(3, status.getFailed());
    assertNull(status.getSucceeded());
    JobCondition failed = condition(status.getConditions(), "Failed");
    assertEquals("True", failed.getStatus());
    assertEquals("BackoffLimitExceeded", failed.getReason());
  }

  @Test
  void postgresClusterGetsHealthyWithItsAppSecret() {
    GenericKubernetesResource cluster = clusters().resource(Fixtures.resource("postgresql.cnpg.io/v1", "Cluster",
        "polaris-db", Map.of("instances", 2, "storage", Map.of("size", "1Gi"),
            "bootstrap", Map.of("initdb", Map.of("database", "polaris", "owner", "polaris"))))).create();

    await().until(() -> "Cluster in healthy state".equals(
        clusters().withName("polaris-db").get().get("status", "phase")));
    GenericKubernetesResource healthy = clusters().withName("polaris-db").get();
    assertEquals(2, (Integer) healthy.get("status", "instances"));
    assertEquals(2, (Integer) healthy.get("status", "readyInstances"));
    assertEquals(Map.of("type", "Ready", "status", "True", "reason", "ClusterIsReady"),
        subMap(healthy.get("status", "conditions", 0), "type", "status", "reason"));

    Secret secret = client.secrets().inNamespace(namespace).withName("polaris-db-app").get();
    assertEquals("kubernetes.io/basic-auth", secret.getType());
    assertEquals(cluster.getMetadata().getUid(), secret.getMetadata().getOwnerReferences().get(0).getUid());
    Map<String, String> data = decoded(secret);
    String password = data.get("password");
    String host = "polaris-db-rw." + namespace + ":5432";
    assertEquals(64, password.length());
    assertEquals("polaris", data.get("username"));
    assertEquals("polaris", data.get("user"));
    assertEquals("polaris", data.get("dbname"));
    assertEquals("polaris-db-rw", data.get("host"));
    assertEquals("5432", data.get("port"));
    assertEquals("postgresql://polaris:" + password + "@" + host + "/polaris", data.get("uri"));
    assertEquals("jdbc:postgresql://" + host + "/polaris?password=" + password + "&user=polaris", data.get("jdbc-uri"));
    assertEquals("polaris-db-rw:5432:polaris:polaris:" + password + "\n", data.get("pgpass"));

    clusters().withName("polaris-db").edit(c -> {
      c.<Map<String, Object>>get("spec").put("instances", 3);
      return c;
    });
    await().until(() -> Integer.valueOf(3).equals(
        clusters().withName("polaris-db").get().get("status", "readyInstances")));
    assertEquals(password, decoded(client.secrets().inNamespace(namespace).withName("polaris-db-app").get())
        .get("password"));
  }

  @Test
  void postgresClusterDefaultsToDatabaseAndOwnerApp() {
    clusters().resource(Fixtures.resource("postgresql.cnpg.io/v1", "Cluster", "pg", Map.of("instances", 1))).create();

    Secret secret = await().until(() -> client.secrets().inNamespace(namespace).withName("pg-app").get(),
        s -> s != null);
    assertEquals("app", decoded(secret).get("dbname"));
    assertEquals("app", decoded(secret).get("username"));
  }

  @Test
  void postgresClusterWithItsOwnSecretGetsNoAppSecret() {
    clusters().resource(Fixtures.resource("postgresql.cnpg.io/v1", "Cluster", "pg", Map.of("instances", 1,
        "bootstrap", Map.of("initdb", Map.of("database", "db", "owner", "db", "secret", Map.of("name", "mine"))))))
        .create();

    await().until(() -> clusters().withName("pg").get().get("status", "phase") != null);
    assertNull(client.secrets().inNamespace(namespace).withName("pg-app").get());
  }

  @Test
  void sparkApplicationRunsToCompletion() {
    sparkApplications().resource(sparkApplication("etl", Map.of("type", "Python"))).create();

    await().until(() -> "COMPLETED".equals(sparkApplications().withName("etl").get()
        .get("status", "applicationState", "state")));
    Map<String, Object> status = sparkApplications().withName("etl").get().get("status");
    assertEquals("etl-driver", GenericKubernetesResource.get(status, "driverInfo", "podName"));
    assertEquals(1, status.get("submissionAttempts"));
    assertNotNull(status.get("lastSubmissionAttemptTime"));
    assertNotNull(status.get("terminationTime"));
    assertTrue(((String) status.get("sparkApplicationId")).startsWith("spark-"));
  }

  @Test
  void sparkApplicationRunsDriverAndExecutorPodsWithALogAndGoesAfterItsTtl() {
    Map<String, Object> spec = new HashMap<>(Map.of("type", "Python", "timeToLiveSeconds", 2));
    spec.put("executor", Map.of("instances", 2));
    sparkApplications().resource(sparkApplication("report", spec)).create();

    await().until(() -> "COMPLETED".equals(sparkApplications().withName("report").get()
        .get("status", "applicationState", "state")));
    await().until(() -> client.pods().inNamespace(namespace).withName("report-driver").get() != null
        && "Succeeded".equals(client.pods().inNamespace(namespace).withName("report-driver").get().getStatus()
            .getPhase()));
    assertEquals(List.of("report-driver"), client.pods().inNamespace(namespace)
        .withLabel("sparkoperator.k8s.io/app-name", "report").list().getItems().stream()
        .map(p -> p.getMetadata().getName()).toList());
    String log = client.pods().inNamespace(namespace).withName("report-driver").getLog();
    assertTrue(log.contains("executor 2 registered"), log);
    assertEquals("INFO SparkContext: Successfully stopped SparkContext\n",
        client.pods().inNamespace(namespace).withName("report-driver").tailingLines(1).getLog());

    // timeToLiveSeconds after the end: the application and its driver go.
    await().atMost(Duration.ofSeconds(10)).until(() -> sparkApplications().withName("report").get() == null);
    await().until(() -> client.pods().inNamespace(namespace).withName("report-driver").get() == null);
  }

  @Test
  void scheduledSparkApplicationStartsARunOnItsCronAndRefusesABadOne() {
    var schedules = client.genericKubernetesResources("sparkoperator.k8s.io/v1beta2", "ScheduledSparkApplication")
        .inNamespace(namespace);
    schedules.resource(Fixtures.resource("sparkoperator.k8s.io/v1beta2", "ScheduledSparkApplication", "minutely",
        new HashMap<>(Map.of("schedule", "* * * * *", "timeZone", "Europe/Paris", "concurrencyPolicy", "Allow",
            "template", Map.of("type", "Python", "mainApplicationFile", "local:///opt/job/main.py"))))).create();
    schedules.resource(Fixtures.resource("sparkoperator.k8s.io/v1beta2", "ScheduledSparkApplication", "broken",
        new HashMap<>(Map.of("schedule", "61 * * * *", "concurrencyPolicy", "Allow",
            "template", Map.of("type", "Python"))))).create();

    await().until(() -> schedules.withName("minutely").get().get("status", "nextRun") != null);
    await().until(() -> "FailedValidation".equals(schedules.withName("broken").get().get("status", "scheduleState")));
    // The first run comes at the next minute: the run carries the schedule's name, label and owner.
    await().atMost(Duration.ofSeconds(75)).until(() -> !sparkApplications()
        .withLabel("sparkoperator.k8s.io/scheduled-app-name", "minutely").list().getItems().isEmpty());
    GenericKubernetesResource run = sparkApplications()
        .withLabel("sparkoperator.k8s.io/scheduled-app-name", "minutely").list().getItems().get(0);
    assertTrue(run.getMetadata().getName().matches("minutely-\\d{19}"), run.getMetadata().getName());
    assertEquals("ScheduledSparkApplication", run.getMetadata().getOwnerReferences().get(0).getKind());
    assertEquals("local:///opt/job/main.py", run.get("spec", "mainApplicationFile"));
    await().until(() -> run.getMetadata().getName().equals(schedules.withName("minutely").get()
        .get("status", "lastRunName")));
  }

  @Test
  void sparkApplicationMatchedByTheFailurePredicateFails() {
    sparkApplications().resource(sparkApplication("failing-etl", Map.of("type", "Python"))).create();

    await().until(() -> "FAILED".equals(sparkApplications().withName("failing-etl").get()
        .get("status", "applicationState", "state")));
    assertNotNull(sparkApplications().withName("failing-etl").get().get("status", "applicationState", "errorMessage"));
  }

  @Test
  void suspendedSparkApplicationWaitsUntilResumed() {
    sparkApplications().resource(sparkApplication("etl", Map.of("type", "Python", "suspend", true))).create();
    await().until(() -> "SUSPENDED".equals(sparkApplications().withName("etl").get()
        .get("status", "applicationState", "state")));

    sparkApplications().withName("etl").edit(app -> {
      app.<Map<String, Object>>get("spec").put("suspend", false);
      return app;
    });

    await().until(() -> "COMPLETED".equals(sparkApplications().withName("etl").get()
        .get("status", "applicationState", "state")));
  }

  /** The local API collects the garbage here (BY_API), including the Secret the simulated operator made. */
  @Test
  void deletingAnOwnerDeletesItsDependents() {
    Deployment owner = client.apps().deployments().inNamespace(namespace)
        .resource(Fixtures.deployment("owner", 1)).create();
    client.configMaps().inNamespace(namespace).resource(ownedConfigMap("owned", owner)).create();
    client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder()
        .withNewMetadata().withName("independent").endMetadata().build()).create();
    GenericKubernetesResource cluster = clusters()
        .resource(Fixtures.resource("postgresql.cnpg.io/v1", "Cluster", "db", Map.of("instances", 1))).create();
    await().until(() -> client.secrets().inNamespace(namespace).withName("db-app").get() != null);

    client.apps().deployments().inNamespace(namespace).withName("owner").delete();
    clusters().resource(cluster).delete();

    await().until(() -> client.configMaps().inNamespace(namespace).withName("owned").get() == null
        && client.secrets().inNamespace(namespace).withName("db-app").get() == null);
    assertNotNull(client.configMaps().inNamespace(namespace).withName("independent").get());
  }

  @Test
  void pausedSimulatorHoldsItsReactionsUntilResumed() {
    simulator.pause();
    try {
      client.apps().deployments().inNamespace(namespace).resource(Fixtures.deployment("web", 1)).create();
      await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
          .until(() -> deployment("web").getStatus() == null);
    } finally {
      simulator.resume();
    }
    await().until(() -> deployment("web").getStatus() != null);
  }

  private Deployment deployment(String name) {
    return client.apps().deployments().inNamespace(namespace).withName(name).get();
  }

  private Job job(String name) {
    return client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
  }

  private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> clusters() {
    return client.genericKubernetesResources("postgresql.cnpg.io/v1", "Cluster").inNamespace(namespace);
  }

  private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> sparkApplications() {
    return client.genericKubernetesResources("sparkoperator.k8s.io/v1beta2", "SparkApplication")
        .inNamespace(namespace);
  }

  private static GenericKubernetesResource sparkApplication(String name, Map<String, Object> spec) {
    return Fixtures.resource("sparkoperator.k8s.io/v1beta2", "SparkApplication", name, new HashMap<>(spec));
  }

  private static Job job(String name, int backoffLimit) {
    return new JobBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withBackoffLimit(backoffLimit)
        .withNewTemplate().withNewSpec().withRestartPolicy("Never")
        .addNewContainer().withName("main").withImage("busybox").endContainer()
        .endSpec().endTemplate()
        .endSpec()
        .build();
  }

  private static JobCondition condition(List<JobCondition> conditions, String type) {
    return conditions.stream().filter(c -> type.equals(c.getType())).findFirst().orElseThrow();
  }

  private static ConfigMap ownedConfigMap(String name, HasMetadata owner) {
    return new ConfigMapBuilder()
        .withNewMetadata().withName(name)
        .addNewOwnerReference().withApiVersion(owner.getApiVersion()).withKind(owner.getKind())
        .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid()).endOwnerReference()
        .endMetadata()
        .build();
  }

  private static Map<String, String> decoded(Secret secret) {
    Map<String, String> values = new HashMap<>();
    secret.getData().forEach((key, value) ->
        values.put(key, new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)));
    return values;
  }

  private static Map<String, Object> subMap(Map<String, Object> map, String... keys) {
    Map<String, Object> sub = new HashMap<>();
    for (String key : keys) {
      sub.put(key, map.get(key));
    }
    return sub;
  }
}
