package io.lakehouse.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** A benchmark namespace with the bucket Secret a catalog's spec names, as a platform admin would prepare it. */
final class Buckets {

  private Buckets() {
  }

  /** Creates (or keeps) {@code namespace} and its bucket Secret {@link #secret}, both labelled as the benchmark's. */
  static void namespace(KubernetesClient kube, String namespace) {
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
        .addToLabels(Main.BENCH_LABEL, "true").endMetadata().build()).createOr(NonDeletingOperation::update);
    kube.secrets().inNamespace(namespace).resource(new SecretBuilder()
        .withNewMetadata()
        .withName(secret(namespace))
        .withNamespace(namespace)
        .addToLabels("lakehouse.io/bucket", "true")
        .addToLabels(Main.BENCH_LABEL, "true")
        .addToAnnotations("lakehouse.io/bucket-name", "warehouse")
        .addToAnnotations("lakehouse.io/endpoint", "http://minio." + namespace + ".svc:9000")
        .addToAnnotations("lakehouse.io/region", "us-east-1")
        .addToAnnotations("lakehouse.io/path-style", "true")
        .endMetadata()
        .withType("Opaque")
        .addToData("AWS_ACCESS_KEY_ID", base64("bench-access-key"))
        .addToData("AWS_SECRET_ACCESS_KEY", base64("bench-secret-key"))
        .build()).createOr(NonDeletingOperation::update);
  }

  /** The bucket Secret of {@code namespace}. */
  static String secret(String namespace) {
    return namespace + "-warehouse";
  }

  static String base64(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }
}
