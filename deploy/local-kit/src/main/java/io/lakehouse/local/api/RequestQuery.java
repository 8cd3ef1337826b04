package io.lakehouse.local.api;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** The query parameters of a request path that the dispatcher reads itself (the mock's extractor reads selectors). */
final class RequestQuery {

  private RequestQuery() {
  }

  static boolean isWatch(String path) {
    return param(path, "watch").map("true"::equals).orElse(false);
  }

  /** Whether a watch asks for BOOKMARK events ({@code allowWatchBookmarks=true}). */
  static boolean bookmarks(String path) {
    return param(path, "allowWatchBookmarks").map("true"::equals).orElse(false);
  }

  /**
   * The resourceVersion a watch starts after; null for "now, with every current object as ADDED" (none, empty or
   * "0", which a real API server also serves from its current state).
   */
  static Long resourceVersion(String path) {
    Optional<String> version = param(path, "resourceVersion").filter(v -> !v.isEmpty() && !"0".equals(v));
    try {
      return version.map(Long::valueOf).orElse(null);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The {@code limit} of a list: the most objects one page holds; 0 (none, or not a positive number) for all. */
  static int limit(String path) {
    try {
      return param(path, "limit").map(Integer::parseInt).filter(l -> l > 0).orElse(0);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** The {@code continue} token of a list's next page, or null. */
  static String continueToken(String path) {
    return param(path, "continue").orElse(null);
  }

  /** The name of {@code fieldSelector=metadata.name=NAME}, or null. */
  static String fieldSelectorName(String path) {
    return param(path, "fieldSelector").flatMap(selector -> {
      for (String requirement : selector.split(",")) {
        if (requirement.startsWith("metadata.name=")) {
          return Optional.of(requirement.substring("metadata.name=".length()).replaceFirst("^=", ""));
        }
      }
      return Optional.empty();
    }).orElse(null);
  }

  private static Optional<String> param(String path, String name) {
    int start = path.indexOf('?');
    if (start < 0) {
      return Optional.empty();
    }
    for (String pair : path.substring(start + 1).split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      if (key.equals(name)) {
        return Optional.of(eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return Optional.empty();
  }
}
