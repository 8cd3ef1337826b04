package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** What the local stack starts with: a demo namespace holding one namespace bucket, as a platform admin sets up. */
final class DemoSeed {

  private DemoSeed() {
  }

  static void seed(KubernetesClient client, String namespace) {
    client.namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .createOr(NonDeletingOperation::update);
    client.secrets().inNamespace(namespace)
        .resource(new SecretBuilder()
            .withNewMetadata()
            .withName(namespace + "-warehouse")
            .withNamespace(namespace)
            .addToLabels("lakehouse.io/bucket", "true")
            .addToAnnotations("lakehouse.io/bucket-name", "warehouse")
            .addToAnnotations("lakehouse.io/endpoint", "http://minio." + namespace + ".svc:9000")
            .addToAnnotations("lakehouse.io/region", "us-east-1")
            .addToAnnotations("lakehouse.io/path-style", "true")
            .endMetadata()
            .withType("Opaque")
            // data, not stringData: the mock does not convert stringData.
            .addToData("AWS_ACCESS_KEY_ID", base64("demo-access-key"))
            .addToData("AWS_SECRET_ACCESS_KEY", base64("demo-secret-key"))
            .build())
        .createOr(NonDeletingOperation::update);
  }

  private static String base64(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }
}
