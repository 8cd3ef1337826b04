package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Objects the tests create, as a service would. */
final class Fixtures {

  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  private static LocalKubeServer server;

  private Fixtures() {
  }

  /**
   * One server for all test classes: loading the 2 MB of CRDs is the slow part. It stops with the JVM; tests keep
   * apart by namespace.
   */
  static synchronized LocalKubeServer server() {
    if (server == null) {
      server = new LocalKubeServer(Path.of("../crds")).start(0);
      Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    }
    return server;
  }

  /** A fresh namespace, so that tests sharing one API server do not see each other's objects. */
  static String newNamespace(KubernetesClient client) {
    String name = "test-" + NAMESPACES.incrementAndGet();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }

  static Deployment deployment(String name, int replicas) {
    return new DeploymentBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec()
        .withReplicas(replicas)
        .withNewSelector().addToMatchLabels("app", name).endSelector()
        .withNewTemplate()
        .withNewMetadata().addToLabels("app", name).endMetadata()
        .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  static GenericKubernetesResource resource(String apiVersion, String kind, String name, Map<String, Object> spec) {
    GenericKubernetesResource resource = new GenericKubernetesResource();
    resource.setApiVersion(apiVersion);
    resource.setKind(kind);
    resource.setMetadata(new ObjectMetaBuilder().withName(name).build());
    resource.setAdditionalProperty("spec", spec);
    return resource;
  }
}
