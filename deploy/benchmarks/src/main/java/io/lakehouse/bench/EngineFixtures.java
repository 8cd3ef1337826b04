package io.lakehouse.bench;

import static io.lakehouse.bench.EnginesBench.BUCKET_SECRET;
import static io.lakehouse.bench.EnginesBench.CATALOG;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** What engines-service needs around its instances, made as the other services would: namespaces with a bucket
 * Secret and a Ready catalog (its event), the OIDC client of an instance (Secret + event), the create requests. */
final class EngineFixtures {

  private final Map<String, String> opts;
  private final KubernetesClient kube;
  private final Api api;
  private final Events events;
  private final List<String> notes;
  private final List<String> namespaces;

  EngineFixtures(EnginesRun r) {
    this.opts = r.opts;
    this.kube = r.kube;
    this.api = r.api;
    this.events = r.events;
    this.notes = r.notes;
    this.namespaces = r.namespaces;
  }

  /** {@code count} fresh namespaces, each with a bucket Secret and a Ready catalog engines-service knows. */
  List<String> prepareNamespaces(String prefix, int count) throws InterruptedException {
    List<String> list = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String ns = count == 1 ? prefix : prefix + "-" + (count > 10 ? Stats.f("%03d", i) : Integer.toString(i));
      list.add(ns);
      namespaces.add(ns);
      kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns)
          .addToLabels(Main.BENCH_LABEL, "true").endMetadata().build()).createOr(NonDeletingOperation::update);
      kube.secrets().inNamespace(ns).resource(new SecretBuilder()
          .withNewMetadata().withName(BUCKET_SECRET).withNamespace(ns)
          .addToLabels("lakehouse.io/bucket", "true").addToLabels(Main.BENCH_LABEL, "true").endMetadata()
          .withType("Opaque")
          .addToData("AWS_ACCESS_KEY_ID", Buckets.base64("bench-access-key"))
          .addToData("AWS_SECRET_ACCESS_KEY", Buckets.base64("bench-secret-key"))
          .build()).createOr(NonDeletingOperation::update);
      events.send(Events.INSTANCES, "/lakehouse/catalog-service", "lakehouse.instance.ready.v1",
          ns + "/iceberg-catalog/" + CATALOG, catalogData(ns, "Ready"));
    }
    awaitCatalogs(list);
    return list;
  }

  /** As catalog-service publishes a catalog (engines-service {@code Api.catalogEvent}). */
  ObjectNode catalogData(String ns, String phase) {
    ObjectNode data = api.json().createObjectNode().put("namespace", ns).put("kind", "iceberg-catalog")
        .put("name", CATALOG).put("generation", 1).put("phase", phase).put("createdBy", "bench");
    data.putArray("conditions");
    data.putObject("spec").put("catalogName", "lakehouse").put("realm", "POLARIS").put("bucket", "warehouse")
        .put("endpoint", "http://minio." + ns + ".svc:9000").put("region", "us-east-1")
        .put("pathStyleAccess", true).put("storageSecret", BUCKET_SECRET)
        .put("internalUri", "http://" + CATALOG + "." + ns + ".svc:8181/api/catalog")
        .put("rootPrincipalSecret", CATALOG + "-root-principal");
    return data;
  }

  /**
   * Waits (bounded, 60 s) until engines-service has stored the catalogs: a dry POST would create an instance, so this
   * reads its table {@code engines.catalogs} through the local cluster's psql.
   */
  private void awaitCatalogs(List<String> list) throws InterruptedException {
    String psql = AuthzBench.psql();
    if (psql == null) {
      Thread.sleep(3000);
      notes.add("psql of the local PostgreSQL not found: waited 3 s for the catalog events instead of checking");
      return;
    }
    String in = list.stream().map(ns -> "'" + ns + "'").collect(Collectors.joining(","));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      String out = Proc.run(List.of("bash", "-c", "PGPASSWORD=postgres '" + psql + "' -h 127.0.0.1 -p "
          + opts.getOrDefault("pg-port", "55432") + " -U postgres -d lakehouse -Atc \"SELECT count(*) FROM"
          + " engines.catalogs WHERE name = '" + CATALOG + "' AND phase = 'Ready' AND namespace IN (" + in + ")\""
          + " 2>&1")).trim();
      if (out.equals(Integer.toString(list.size()))) {
        return;
      }
      if (!out.matches("\\d+")) {
        throw new IllegalStateException("cannot read engines.catalogs: " + out);
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("engines-service did not store the catalogs of " + list + " within 60 s");
  }

  /** The instance's OIDC client, as access-service makes it ({@link OidcStandIn}). */
  void oidcClientReady(String ns, String kind, String name) {
    OidcStandIn.ready(kube, events, api.json(), ns, kind, name);
  }

  /** The create request of each kind: a catalog for trino and spark-connect, a storage block for mlflow. */
  ObjectNode request(String ns, String kind, String name) {
    ObjectNode body = api.json().createObjectNode().put("name", name);
    ObjectNode spec = body.putObject("spec");
    switch (kind) {
      case "trino", "spark-connect" -> spec.put("catalog", CATALOG);
      case "mlflow" -> spec.putObject("storage").put("bucket", "mlflow").put("endpoint", "http://minio." + ns
          + ".svc:9000").put("region", "us-east-1").put("credentialsSecret", BUCKET_SECRET);
      default -> {
        // nifi: the defaults
      }
    }
    return body;
  }

  static boolean needsOidc(String kind) {
    return kind.equals("trino") || kind.equals("nifi");
  }

  List<HasMetadata> objectsIn(String ns) {
    List<HasMetadata> objects = new ArrayList<>();
    objects.addAll(kube.configMaps().inNamespace(ns).list().getItems());
    objects.addAll(kube.secrets().inNamespace(ns).list().getItems());
    objects.addAll(kube.apps().deployments().inNamespace(ns).list().getItems());
    objects.addAll(kube.apps().statefulSets().inNamespace(ns).list().getItems());
    objects.addAll(kube.services().inNamespace(ns).list().getItems());
    objects.addAll(kube.network().v1().ingresses().inNamespace(ns).list().getItems());
    objects.addAll(kube.batch().v1().jobs().inNamespace(ns).list().getItems());
    objects.addAll(kube.persistentVolumeClaims().inNamespace(ns).list().getItems());
    objects.addAll(kube.genericKubernetesResources(ObjectWatch.CNPG_CLUSTER).inNamespace(ns).list().getItems());
    return objects;
  }
}
