package io.lakehouse.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;

/**
 * What access-service does once Keycloak has an instance's OIDC client, done by the benchmarks that run a service
 * alone (engines, notebooks): the {@code <name>-oidc} Secret, then the {@code oidc-client-ready} event.
 */
final class OidcStandIn {

  private OidcStandIn() {
  }

  static void ready(KubernetesClient kube, Events events, ObjectMapper json, String ns, String kind, String name) {
    String clientId = ns + "-" + name + "-" + kind;
    kube.secrets().inNamespace(ns).resource(new SecretBuilder()
        .withNewMetadata().withName(name + "-oidc").withNamespace(ns).addToLabels(Main.BENCH_LABEL, "true")
        .endMetadata()
        .addToData("clientId", Buckets.base64(clientId))
        .addToData("clientSecret", Buckets.base64("bench-oidc-client-secret"))
        .addToData("issuer", Buckets.base64("https://keycloak.example/realms/lakehouse"))
        .build()).createOr(NonDeletingOperation::update);
    events.send(Events.ACCESS, "/lakehouse/access-service", "lakehouse.access.oidc-client-ready.v1",
        ns + "/" + kind + "/" + name, json.createObjectNode().put("namespace", ns).put("kind", kind)
            .put("name", name).put("clientId", clientId).put("secretName", name + "-oidc"));
  }
}
