package io.lakehouse.local.api;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * One page of a list ({@code limit}, {@code continue}), as a real API server pages: why — an informer listing
 * thousands of objects in one response waits for one huge body and times out on a loaded machine (P8); pages keep
 * every request small. The continue token carries the resourceVersion of the first page and the namespace and name
 * of the last item served: the next page starts after that item (lists are ordered by namespace and name), and every
 * page reports the first page's resourceVersion, so an informer watching from it afterwards gets every change made
 * while it paged (the watch history replays them) instead of missing those that hit a page already served.
 *
 * @param items the page's objects, as JSON
 * @param resourceVersion the list's resourceVersion (the first page's)
 * @param next the token of the next page, or null on the last
 */
record ListPage(List<String> items, long resourceVersion, String next) {

  /** Where a continued list resumes: after {@code namespace/name}, reporting {@code resourceVersion}. */
  record Continue(long resourceVersion, String namespace, String name) {

    String token() {
      String plain = resourceVersion + "\n" + namespace + "\n" + name;
      return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    /** The position a token names; null when it is not one of ours (the list then starts over, as if none). */
    static Continue parse(String token) {
      if (token == null || token.isEmpty()) {
        return null;
      }
      try {
        String[] parts = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8).split("\n", -1);
        return parts.length == 3 ? new Continue(Long.parseLong(parts[0]), parts[1], parts[2]) : null;
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
  }

  /** The list response body (the mock's shape, plus {@code metadata.continue} when more pages follow). */
  String json() {
    return "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[" + String.join(",", items)
        + "],\"metadata\":{\"resourceVersion\":\"" + resourceVersion + "\",\"selfLink\":\"\""
        + (next == null ? "" : ",\"continue\":\"" + next + "\"") + "}}";
  }
}
