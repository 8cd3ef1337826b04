package io.lakehouse.local;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The custom resources the simulator plays the operators of. Addressed by an explicit context rather than
 * apiVersion+kind so that no discovery call is needed: a test's mock API server may not have their CRDs.
 */
final class Kinds {

  static final ResourceDefinitionContext CNPG_CLUSTER = namespaced("postgresql.cnpg.io", "v1", "Cluster", "clusters");
  static final ResourceDefinitionContext SPARK_APPLICATION =
      namespaced("sparkoperator.k8s.io", "v1beta2", "SparkApplication", "sparkapplications");
  static final ResourceDefinitionContext SCHEDULED_SPARK_APPLICATION =
      namespaced("sparkoperator.k8s.io", "v1beta2", "ScheduledSparkApplication", "scheduledsparkapplications");

  private Kinds() {
  }

  private static ResourceDefinitionContext namespaced(String group, String version, String kind, String plural) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(true)
        .build();
  }
}
