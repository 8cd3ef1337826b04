package io.lakehouse.local;

import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The requests the local API server answered, by client (User-Agent) and Kubernetes verb, served as JSON at
 * {@link #PATH}: the benchmarks' machine-independent "API calls per instance" (deploy/benchmarks). The simulator's
 * client calls itself {@link #SIMULATOR_AGENT}, so the services' calls (fabric8's default agent) stand apart.
 */
final class RequestCounts {

  static final String PATH = "/_lakehouse/requests";
  static final String SIMULATOR_AGENT = "lakehouse-local-kit";

  /** A request for one object: {@code …/<plural>/<name>[/status|/scale|/log]}, namespaced or not. */
  private static final Pattern NAMED = Pattern.compile(
      "/(api|apis/[^/]+)/[^/]+(/namespaces/[^/]+)?/[^/]+/[^/?]+(/(status|scale|log))?");

  private final Map<String, Map<String, LongAdder>> counts = new ConcurrentHashMap<>();

  void count(RecordedRequest request) {
    String agent = request.getHeader("User-Agent");
    counts.computeIfAbsent(agent == null ? "-" : agent, a -> new ConcurrentHashMap<>())
        .computeIfAbsent(verb(request), v -> new LongAdder()).increment();
  }

  /** {@code {"agent": {"verb": n, …}, …}}, sorted. */
  String json() {
    return new TreeMap<>(counts).entrySet().stream()
        .map(agent -> quote(agent.getKey()) + ":{" + new TreeMap<>(agent.getValue()).entrySet().stream()
            .map(verb -> quote(verb.getKey()) + ":" + verb.getValue().sum()).collect(Collectors.joining(",")) + "}")
        .collect(Collectors.joining(",", "{", "}"));
  }

  /** The Kubernetes verb: get, list, watch, create, update, patch, delete, deletecollection. */
  static String verb(RecordedRequest request) {
    String path = request.getPath();
    int query = path.indexOf('?');
    boolean named = NAMED.matcher(query < 0 ? path : path.substring(0, query)).matches();
    return switch (request.getMethod()) {
      case "GET" -> path.contains("watch=true") ? "watch" : named ? "get" : "list";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> named ? "delete" : "deletecollection";
      default -> request.getMethod().toLowerCase(java.util.Locale.ROOT);
    };
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
