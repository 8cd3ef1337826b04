package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Plays the kubelet, the built-in controllers, the CloudNativePG and Spark operators, and the garbage collector
 * against any Kubernetes API, so that the services see their objects become ready where no real cluster runs.
 *
 * <p>It follows objects with informers in all namespaces and acts {@code delay} after each change: Deployments and
 * StatefulSets become ready, Jobs complete (or fail, see {@link #failJobsNamed}), CNPG Clusters get healthy with their
 * {@code -app} Secret, SparkApplications run to COMPLETED, and, where the API does not (the fabric8 mock), deleting an
 * owner deletes its dependents. Statuses are written through the status subresource, guarded by the resourceVersion
 * read, and only when they differ.
 *
 * <pre>{@code
 * try (ClusterSimulator cluster = new ClusterSimulator(client, Duration.ZERO).start()) { ... }
 * }</pre>
 */
public final class ClusterSimulator implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  /** Kinds followed only so that they take part in garbage collection, when the simulator plays it. */
  private static final List<Class<? extends HasMetadata>> COLLECTED_ONLY = List.of(ConfigMap.class, Service.class,
      ServiceAccount.class, PersistentVolumeClaim.class, CronJob.class, Ingress.class, NetworkPolicy.class,
      Role.class, RoleBinding.class, PodDisruptionBudget.class);

  private final KubernetesClient client;
  private final WorkQueue queue;
  private final List<Watched<?>> watched = new ArrayList<>();
  private final JobController jobs;
  private final SparkApplicationController sparkApplications;

  /** Who deletes the dependents of a deleted owner. */
  public enum GarbageCollection {
    /** The API server does, as Kubernetes and local-kit's {@link LocalKubeServer} do. */
    BY_API,
    /** The simulator does, following every kind the services own: the fabric8 mock has no garbage collector. */
    BY_SIMULATOR
  }

  /** A simulator that collects garbage itself, as the fabric8 mock needs. */
  public ClusterSimulator(KubernetesClient client, Duration delay) {
    this(client, delay, GarbageCollection.BY_SIMULATOR);
  }

  /**
   * Prepares the simulator; nothing happens before {@link #start()}.
   *
   * @param client the API to play the cluster against
   * @param delay how long after a change the simulated cluster reacts: {@link Duration#ZERO} for tests
   * @param garbageCollection whether the API collects garbage or the simulator must (it then follows ten more kinds)
   */
  public ClusterSimulator(KubernetesClient client, Duration delay, GarbageCollection garbageCollection) {
    this.client = client;
    this.queue = new WorkQueue(delay);
    KubernetesSerialization serialization = client.getKubernetesSerialization();

    Watched<Deployment> deployments = follow(Deployment.class);
    Watched<StatefulSet> statefulSets = follow(StatefulSet.class);
    Watched<Job> jobsWatched = follow(Job.class);
    // Without garbage to collect, the database Secrets are all the simulator reads of the Secrets: not every
    // service's (two thirds of a catalog's Secrets, each read into a model and cached here for nothing).
    Watched<Secret> secrets = garbageCollection == GarbageCollection.BY_API
        ? register(new Watched<>("Secret", client.secrets(), PostgresClusterController.APP_SECRET_LABELS))
        : follow(Secret.class);
    Watched<GenericKubernetesResource> clusters = follow(Kinds.CNPG_CLUSTER);
    Watched<GenericKubernetesResource> apps = follow(Kinds.SPARK_APPLICATION);
    Watched<GenericKubernetesResource> schedules = follow(Kinds.SCHEDULED_SPARK_APPLICATION);
    if (garbageCollection == GarbageCollection.BY_SIMULATOR) {
      COLLECTED_ONLY.forEach(this::follow);
      collectGarbage();
    }

    jobs = new JobController(jobsWatched);
    sparkApplications = new SparkApplicationController(new GenericStatus(apps, serialization), client);
    play(deployments, new DeploymentController(deployments));
    play(statefulSets, new StatefulSetController(statefulSets));
    play(jobsWatched, jobs);
    play(clusters, new PostgresClusterController(new GenericStatus(clusters, serialization), secrets));
    play(apps, sparkApplications);
    play(schedules, new ScheduledSparkApplicationController(new GenericStatus(schedules, serialization), client));
  }

  /** Starts following the API; returns once every informer has listed what already exists. */
  public ClusterSimulator start() {
    CompletableFuture.allOf(watched.stream().map(kind -> kind.start().toCompletableFuture())
        .toArray(CompletableFuture[]::new))
        .orTimeout(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .join();
    return this;
  }

  /** Jobs whose name matches fail (backoff limit exceeded) instead of completing; applies to Jobs not yet finished. */
  public ClusterSimulator failJobsNamed(Predicate<String> names) {
    jobs.failJobsNamed(names);
    return this;
  }

  /** SparkApplications whose name matches end FAILED instead of COMPLETED. */
  public ClusterSimulator failSparkApplicationsNamed(Predicate<String> names) {
    sparkApplications.failApplicationsNamed(names);
    return this;
  }

  /** Holds every reaction (statuses, Secrets, garbage collection) until {@link #resume()}: a test sees "not yet". */
  public void pause() {
    queue.pause();
  }

  /** Carries out what was held, then reacts as usual. */
  public void resume() {
    queue.resume();
  }

  /** Stops following the API. The client stays open: it is the caller's. */
  @Override
  public void close() {
    watched.forEach(Watched::stop);
    queue.close();
  }

  /** Deletes the dependents of every deleted object of the kinds followed so far (all of them: call it last). */
  private void collectGarbage() {
    GarbageCollector collector = new GarbageCollector(List.copyOf(watched));
    watched.forEach(kind -> kind.onDelete(owner -> queue.submit("gc/" + owner.getMetadata().getUid(),
        () -> collector.ownerDeleted(owner))));
  }

  private <T extends HasMetadata> Watched<T> follow(Class<T> type) {
    return register(new Watched<>(type.getSimpleName(), client.resources(type)));
  }

  private Watched<GenericKubernetesResource> follow(ResourceDefinitionContext context) {
    return register(new Watched<>(context.getKind(), client.genericKubernetesResources(context)));
  }

  private <T extends HasMetadata> Watched<T> register(Watched<T> kind) {
    watched.add(kind);
    return kind;
  }

  private <T extends HasMetadata> void play(Watched<T> kind, Controller<T> controller) {
    kind.onChange(changed -> {
      String namespace = changed.getMetadata().getNamespace();
      String name = changed.getMetadata().getName();
      queue.submit(kind.kind() + "/" + namespace + "/" + name,
          () -> kind.find(namespace, name).ifPresent(controller::reconcile));
    });
  }
}
