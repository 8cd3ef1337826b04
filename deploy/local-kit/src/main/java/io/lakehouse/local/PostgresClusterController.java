package io.lakehouse.local;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Plays the CloudNativePG operator for {@code postgresql.cnpg.io/v1 Cluster}: creates the {@code <cluster>-app}
 * Secret once, as CNPG's {@code specs.CreateSecret} does (not when {@code bootstrap.initdb.secret} names the user's
 * own), then reports the cluster healthy with every instance ready.
 */
final class PostgresClusterController implements Controller<GenericKubernetesResource> {

  private static final int PORT = 5432;
  private static final int PASSWORD_LENGTH = 64;
  private static final String PASSWORD_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  private static final int HTTP_CONFLICT = 409;
  /** The labels that mark the Secrets this controller makes (CloudNativePG's own). */
  static final Map<String, String> APP_SECRET_LABELS = Map.of("cnpg.io/userType", "app");

  private final GenericStatus status;
  private final Watched<Secret> secrets;
  private final SecureRandom random = new SecureRandom();

  PostgresClusterController(GenericStatus status, Watched<Secret> secrets) {
    this.status = status;
    this.secrets = secrets;
  }

  @Override
  public void reconcile(GenericKubernetesResource cluster) {
    if (cluster.get("spec", "bootstrap", "initdb", "secret", "name") == null) {
      ensureAppSecret(cluster);
    }
    int instances = ((Number) Objects.requireNonNullElse(cluster.get("spec", "instances"), 1)).intValue();
    Map<String, Object> desired = new LinkedHashMap<>();
    desired.put("phase", "Cluster in healthy state");
    desired.put("instances", instances);
    desired.put("readyInstances", instances);
    desired.put("conditions",
        List.of(GenericStatus.condition(cluster, "Ready", "True", "ClusterIsReady", "Cluster is Ready")));
    status.write(cluster, desired);
  }

  private void ensureAppSecret(GenericKubernetesResource cluster) {
    String namespace = cluster.getMetadata().getNamespace();
    String name = cluster.getMetadata().getName() + "-app";
    if (secrets.find(namespace, name).isPresent()) {
      return;
    }
    try {
      secrets.create(appSecret(cluster, name));
    } catch (KubernetesClientException e) {
      if (e.getCode() != HTTP_CONFLICT) {
        throw e;
      }
      // Created by an earlier pass that our cache has not seen yet: CNPG never rewrites it either.
    }
  }

  private Secret appSecret(GenericKubernetesResource cluster, String secretName) {
    String clusterName = cluster.getMetadata().getName();
    String namespace = cluster.getMetadata().getNamespace();
    String dbname = Objects.requireNonNullElse(cluster.get("spec", "bootstrap", "initdb", "database"), "app");
    String owner = Objects.requireNonNullElse(cluster.get("spec", "bootstrap", "initdb", "owner"), dbname);
    String password = password();
    String host = clusterName + "-rw";
    String namespacedHost = host + "." + namespace + ":" + PORT;
    String fqdnHost = host + "." + namespace + ".svc.cluster.local:" + PORT;

    Map<String, String> values = new LinkedHashMap<>();
    values.put("username", owner);
    values.put("user", owner);
    values.put("password", password);
    values.put("dbname", dbname);
    values.put("host", host);
    values.put("port", String.valueOf(PORT));
    values.put("pgpass", host + ":" + PORT + ":" + dbname + ":" + owner + ":" + password + "\n");
    values.put("uri", postgresUri(namespacedHost, dbname, owner, password));
    values.put("jdbc-uri", jdbcUri(namespacedHost, dbname, owner, password));
    values.put("fqdn-uri", postgresUri(fqdnHost, dbname, owner, password));
    values.put("fqdn-jdbc-uri", jdbcUri(fqdnHost, dbname, owner, password));
    Map<String, String> data = new LinkedHashMap<>();
    // The mock does not turn stringData into data, so write data directly.
    values.forEach((key, value) -> data.put(key, base64(value)));

    return new SecretBuilder()
        .withNewMetadata()
        .withName(secretName)
        .withNamespace(namespace)
        .addToLabels(APP_SECRET_LABELS)
        .addToLabels("cnpg.io/reload", "true")
        .addToLabels("app.kubernetes.io/managed-by", "cloudnative-pg")
        .addNewOwnerReference()
        .withApiVersion(cluster.getApiVersion())
        .withKind(cluster.getKind())
        .withName(clusterName)
        .withUid(cluster.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .endOwnerReference()
        .endMetadata()
        .withType("kubernetes.io/basic-auth")
        .withData(data)
        .build();
  }

  private static String postgresUri(String host, String dbname, String user, String password) {
    return "postgresql://" + encode(user) + ":" + encode(password) + "@" + host + "/" + dbname;
  }

  private static String jdbcUri(String host, String dbname, String user, String password) {
    return "jdbc:postgresql://" + host + "/" + dbname + "?password=" + encode(password) + "&user=" + encode(user);
  }

  private String password() {
    StringBuilder password = new StringBuilder(PASSWORD_LENGTH);
    for (int i = 0; i < PASSWORD_LENGTH; i++) {
      password.append(PASSWORD_CHARS.charAt(random.nextInt(PASSWORD_CHARS.length())));
    }
    return password.toString();
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static String base64(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }
}
