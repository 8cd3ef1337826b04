package io.lakehouse.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;

/**
 * The instances API of catalog-service (and, with a {@code kind}, of engines-service, which serves the same paths) over
 * java.net.http (HTTP/1.1, 127.0.0.1 only), with one bearer token.
 */
final class Api {

  static final String KIND = "iceberg-catalog";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final HttpClient http;
  private final String base;
  private volatile String token;
  private final ObjectMapper json = new ObjectMapper();

  Api(String base, String token) {
    if (!URI.create(base).getHost().equals("127.0.0.1")) {
      throw new IllegalArgumentException("benchmarks only talk to 127.0.0.1: " + base);
    }
    this.base = base;
    this.token = token;
    this.http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .executor(Executors.newFixedThreadPool(4, r -> {
          Thread t = new Thread(r, "api-http");
          t.setDaemon(true);
          return t;
        }))
        .build();
  }

  /** A fresh token (Keycloak's expire after 5 min). */
  void token(String fresh) {
    this.token = fresh;
  }

  String instances(String namespace) {
    return instances(namespace, KIND);
  }

  String instances(String namespace, String kind) {
    return "/api/v1/namespaces/" + namespace + "/instances/" + kind;
  }

  /** POST of a create request ({@code {"name": …, "spec": …}}) for any kind. */
  HttpResponse<String> create(String namespace, String kind, JsonNode body) {
    return send(request(instances(namespace, kind)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build());
  }

  ObjectMapper json() {
    return json;
  }

  HttpResponse<String> createCatalog(String namespace, String name, String bucketSecret) {
    String body = json.createObjectNode()
        .put("name", name)
        .set("spec", json.createObjectNode().set("storage", json.createObjectNode()
            .put("bucket", "warehouse")
            .put("endpoint", "http://minio." + namespace + ".svc:9000")
            .put("region", "us-east-1")
            .put("credentialsSecret", bucketSecret)))
        .toString();
    return send(request(instances(namespace)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  /** PUT of a JSON body (a membership in access-service). */
  HttpResponse<String> put(String path, String body) {
    return send(request(path).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  HttpResponse<String> get(String path) {
    return send(request(path).GET().build());
  }

  HttpResponse<String> delete(String path) {
    return send(request(path).DELETE().build());
  }

  /** The phase of an instance, or null when it does not exist (404). */
  String phase(String namespace, String name) {
    return phase(namespace, KIND, name);
  }

  /** The phase of an instance of {@code kind}, or null when it does not exist (404). */
  String phase(String namespace, String kind, String name) {
    HttpResponse<String> r = get(instances(namespace, kind) + "/" + name);
    if (r.statusCode() == 404) {
      return null;
    }
    if (r.statusCode() != 200) {
      throw new IllegalStateException("GET " + name + ": " + r.statusCode() + " " + r.body());
    }
    return read(r.body()).path("status").path("phase").asText();
  }

  /** One page (up to 500) of a namespace's instances. */
  JsonNode list(String namespace) {
    return list(namespace, KIND);
  }

  /** One page (up to 500) of a namespace's instances of {@code kind}. */
  JsonNode list(String namespace, String kind) {
    HttpResponse<String> r = get(instances(namespace, kind) + "?limit=500");
    if (r.statusCode() != 200) {
      throw new IllegalStateException("list " + namespace + ": " + r.statusCode() + " " + r.body());
    }
    JsonNode page = read(r.body());
    if (page.hasNonNull("continue")) {
      throw new IllegalStateException("more than 500 instances in " + namespace + ": not a benchmark namespace");
    }
    return page.path("items");
  }

  /** The service's management interface (/q/health, /q/metrics): the API port + 1000 (deploy/local). */
  static String management(String base) {
    URI api = URI.create(base);
    return api.getScheme() + "://" + api.getHost() + ":" + (api.getPort() + 1000);
  }

  /** The service's reconcile passes so far ({@code lakehouse_reconcile_passes_total} on /q/metrics). */
  double reconcilePasses() {
    return metric("lakehouse_reconcile_passes_total");
  }

  /** Instances waiting for a pass or in one (0 when everything the service knows has converged). */
  double reconcileQueueDepth() {
    return metric("lakehouse_reconcile_queue_depth");
  }

  /** The sum of a metric's series on the service's /q/metrics. */
  private double metric(String name) {
    String metrics = send(HttpRequest.newBuilder(URI.create(management(base) + "/q/metrics")).timeout(TIMEOUT).GET()
        .build()).body();
    return metrics.lines().filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
  }

  boolean healthy() {
    try {
      return send(HttpRequest.newBuilder(URI.create(management(base) + "/q/health/ready")).timeout(TIMEOUT).GET().build())
          .statusCode() == 200;
    } catch (RuntimeException e) {
      return false;
    }
  }

  JsonNode read(String body) {
    try {
      return json.readTree(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT)
        .header("Authorization", "Bearer " + token)
        .header("Accept", "application/json");
  }

  private HttpResponse<String> send(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
