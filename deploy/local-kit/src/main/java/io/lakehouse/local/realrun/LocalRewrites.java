package io.lakehouse.local.realrun;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every change made to what the services generated so that a pod runs as a local process, and nothing else:
 * <ul>
 *   <li>addresses: a Service's in-cluster address ({@code svc:port}, {@code svc.ns:port}, {@code svc.ns.svc:port},
 *       {@code svc.ns.svc.cluster.local:port}), or any other {@code host:port} listed, becomes the local
 *       {@code host:port} serving it;</li>
 *   <li>URLs: a URL prefix listed becomes another one (a stand-in serving the same API at another base path);</li>
 *   <li>paths: a container path (a mount path, a data directory) becomes a local folder, for itself and everything
 *       below it;</li>
 *   <li>properties: the value of a property line ({@code key=value} in a properties file) becomes another one: a
 *       listen port a server reads from its configuration only (two pods of one machine cannot listen on one
 *       port).</li>
 * </ul>
 * They apply to env values, args and the text files of ConfigMap volumes; Secret files (keystores, keys) are written
 * byte for byte.
 */
public final class LocalRewrites {

  private final String namespace;
  private final Map<String, String> addresses = new LinkedHashMap<>();
  private final Map<String, String> urls = new LinkedHashMap<>();
  private final Map<String, String> hosts = new LinkedHashMap<>();
  private final Map<String, Path> paths = new LinkedHashMap<>();
  private final Map<String, String> properties = new LinkedHashMap<>();

  public LocalRewrites(String namespace) {
    this.namespace = namespace;
  }

  /** The Service {@code service} of the namespace, port {@code port}, is served locally at {@code local}. */
  public LocalRewrites address(String service, int port, String local) {
    addresses.put(service + ":" + port, local);
    return this;
  }

  /**
   * A host of another namespace or outside the cluster ({@code minio.storage.svc}, {@code s3.example.com}), port
   * {@code port}, is served locally at {@code local}.
   */
  public LocalRewrites host(String host, int port, String local) {
    hosts.put(host + ":" + port, local);
    return this;
  }

  /**
   * A URL prefix served locally under another prefix: a stand-in whose API sits at another base path than the
   * component it replaces (the Iceberg REST server at {@code /} for Polaris's {@code /api/catalog}).
   */
  public LocalRewrites url(String from, String to) {
    urls.put(from, to);
    return this;
  }

  /** The container path {@code containerPath} and everything below it is the local folder {@code local}. */
  public LocalRewrites path(String containerPath, Path local) {
    paths.put(containerPath.replaceAll("/+$", ""), local.toAbsolutePath());
    return this;
  }

  /** Every property line {@code key=...} (or {@code key ...}, {@code key: ...}) gets the value {@code value}. */
  public LocalRewrites property(String key, String value) {
    properties.put(key, value);
    return this;
  }

  /** The local folder of a container path; fails when no path rewrite covers it. */
  Path localPath(String containerPath) {
    String normalized = containerPath.replaceAll("/+$", "");
    return longestFirst().stream()
        .filter(p -> normalized.equals(p) || normalized.startsWith(p + "/"))
        .findFirst()
        .map(p -> paths.get(p).resolve(normalized.substring(p.length()).replaceFirst("^/", "")))
        .orElseThrow(() -> new IllegalArgumentException("container path " + containerPath
            + " has no local folder: add a path rewrite for it"));
  }

  /** The text with every address, URL, path and property rewritten. */
  String apply(String text) {
    String out = text;
    for (Map.Entry<String, String> u : urls.entrySet()) {
      out = out.replace(u.getKey(), u.getValue());
    }
    for (Map.Entry<String, String> a : addresses.entrySet()) {
      int colon = a.getKey().lastIndexOf(':');
      String service = Pattern.quote(a.getKey().substring(0, colon));
      String port = a.getKey().substring(colon + 1);
      Pattern p = Pattern.compile("(?<![\\w.-])" + service + "(\\." + Pattern.quote(namespace)
          + "(\\.svc(\\.cluster\\.local)?)?)?:" + port + "(?!\\d)");
      out = p.matcher(out).replaceAll(Matcher.quoteReplacement(a.getValue()));
    }
    for (Map.Entry<String, String> h : hosts.entrySet()) {
      Pattern p = Pattern.compile("(?<![\\w.-])" + Pattern.quote(h.getKey()) + "(?!\\d)");
      out = p.matcher(out).replaceAll(Matcher.quoteReplacement(h.getValue()));
    }
    if (!paths.isEmpty()) {
      // One pass over all prefixes, longest first: a rewritten path is never rewritten again (a local folder may
      // itself start with a container path, e.g. under /tmp).
      String alternatives = String.join("|", longestFirst().stream().map(Pattern::quote).toList());
      Pattern p = Pattern.compile("(?<![\\w.-])(" + alternatives + ")(?=[/\\s\"',;:]|$)", Pattern.MULTILINE);
      out = p.matcher(out).replaceAll(m -> Matcher.quoteReplacement(paths.get(m.group(1)).toString()));
    }
    for (Map.Entry<String, String> property : properties.entrySet()) {
      Pattern p = Pattern.compile("^(\\s*" + Pattern.quote(property.getKey()) + "(?:\\s*[=:]\\s*|\\s+)).*$",
          Pattern.MULTILINE);
      out = p.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + property.getValue()));
    }
    return out;
  }

  private List<String> longestFirst() {
    return paths.keySet().stream().sorted(Comparator.comparingInt(String::length).reversed()).toList();
  }
}
