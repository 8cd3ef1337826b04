package io.lakehouse.local.api;

import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The objects of the local API server, each stored as its JSON under the attributes the fabric8 mock derives from it
 * (api group, version, plural, namespace, name, labels), and indexed by (group, plural) → namespace → name. The fabric8
 * mock scans all its objects on every request; here a request looks at the objects of its kind only, in its namespace
 * when it names one, and at one object when it names it. The attributes of the request are still matched against
 * each candidate ({@link AttributeSet#matches}), so label and field selectors mean what they meant in the mock.
 *
 * <p>Lists come out ordered by namespace and name, as a real API server (etcd) lists them. Not thread-safe: the
 * dispatcher holds a lock around every use.
 */
final class IndexedStore {

  /** Objects whose attributes name no plural (none in practice): looked at by every query. */
  private static final String NO_KIND = "\0";

  private final Map<String, NavigableMap<String, NavigableMap<String, Map.Entry<AttributeSet, String>>>> kinds =
      new HashMap<>();

  /** The first object matching {@code query}, or null. */
  Map.Entry<AttributeSet, String> find(AttributeSet query) {
    for (Map.Entry<AttributeSet, String> entry : candidates(query, null)) {
      if (entry.getKey().matches(query)) {
        return entry;
      }
    }
    return null;
  }

  /** Every object matching {@code query}, ordered by namespace and name. */
  List<Map.Entry<AttributeSet, String>> select(AttributeSet query) {
    return select(query, null, Integer.MAX_VALUE);
  }

  /**
   * At most {@code max} objects matching {@code query} that come after {@code after} (null: from the first), ordered
   * by namespace and name: one page of a list, found without looking at the objects before it.
   */
  List<Map.Entry<AttributeSet, String>> select(AttributeSet query, ListPage.Continue after, int max) {
    List<Map.Entry<AttributeSet, String>> found = new ArrayList<>();
    for (Map.Entry<AttributeSet, String> entry : candidates(query, after)) {
      if (found.size() == max) {
        break;
      }
      if (entry.getKey().matches(query)) {
        found.add(entry);
      }
    }
    return found;
  }

  /** Stores {@code json} under {@code key}, replacing the object of the same kind, namespace and name. */
  void put(AttributeSet key, String json) {
    kinds.computeIfAbsent(kind(key), k -> new TreeMap<>())
        .computeIfAbsent(value(key, KubernetesAttributesExtractor.NAMESPACE), n -> new TreeMap<>())
        .put(value(key, KubernetesAttributesExtractor.NAME), new SimpleImmutableEntry<>(key, json));
  }

  /** Removes the object stored under {@code key}; returns its JSON, or null. */
  String remove(AttributeSet key) {
    var namespaces = kinds.get(kind(key));
    var names = namespaces == null ? null : namespaces.get(value(key, KubernetesAttributesExtractor.NAMESPACE));
    if (names == null) {
      return null;
    }
    String name = value(key, KubernetesAttributesExtractor.NAME);
    Map.Entry<AttributeSet, String> entry = names.get(name);
    if (entry == null || !entry.getKey().equals(key)) {
      return null;
    }
    names.remove(name);
    if (names.isEmpty()) {
      namespaces.remove(value(key, KubernetesAttributesExtractor.NAMESPACE));
    }
    return entry.getValue();
  }

  void clear() {
    kinds.clear();
  }

  /**
   * The objects {@code query} may match, in list order: its kind, its namespace and its name where it gives them,
   * only those after {@code after} when given (a page of a list skips the objects before it through the index).
   */
  private Collection<Map.Entry<AttributeSet, String>> candidates(AttributeSet query, ListPage.Continue after) {
    if (!query.containsKey(KubernetesAttributesExtractor.PLURAL)) {
      return all(kinds.values());
    }
    List<NavigableMap<String, NavigableMap<String, Map.Entry<AttributeSet, String>>>> scopes = new ArrayList<>(2);
    var ofKind = kinds.get(kind(query));
    if (ofKind != null) {
      scopes.add(ofKind);
    }
    var unknown = kinds.get(NO_KIND);
    if (unknown != null) {
      scopes.add(unknown);
    }
    String namespace = exact(query, KubernetesAttributesExtractor.NAMESPACE, KubernetesAttributesExtractor.METADATA_NAMESPACE);
    String name = exact(query, KubernetesAttributesExtractor.NAME, KubernetesAttributesExtractor.METADATA_NAME);
    List<Map.Entry<AttributeSet, String>> found = new ArrayList<>();
    for (var namespaces : scopes) {
      var inScope = namespace != null ? onlyKey(namespaces, namespace)
          : after == null ? namespaces : namespaces.tailMap(after.namespace(), true);
      for (var names : inScope.entrySet()) {
        var tail = after != null && names.getKey().equals(after.namespace())
            ? names.getValue().tailMap(after.name(), false) : names.getValue();
        if (name == null) {
          found.addAll(tail.values());
        } else if (tail.containsKey(name)) {
          found.add(tail.get(name));
        }
      }
    }
    return found;
  }

  private static Collection<Map.Entry<AttributeSet, String>> all(
      Collection<NavigableMap<String, NavigableMap<String, Map.Entry<AttributeSet, String>>>> scopes) {
    List<Map.Entry<AttributeSet, String>> found = new ArrayList<>();
    scopes.forEach(namespaces -> namespaces.values().forEach(names -> found.addAll(names.values())));
    return found;
  }

  private static <T> NavigableMap<String, T> onlyKey(NavigableMap<String, T> map, String key) {
    return map.subMap(key, true, key, true);
  }

  /** (group, plural) of a stored object or a query: the core group is "". */
  static String kind(AttributeSet attributes) {
    String plural = value(attributes, KubernetesAttributesExtractor.PLURAL);
    return plural.isEmpty() ? NO_KIND : value(attributes, KubernetesAttributesExtractor.API) + "/" + plural;
  }

  static String value(AttributeSet attributes, String key) {
    Attribute attribute = attributes.getAttribute(key);
    return attribute == null || attribute.getValues().isEmpty() ? "" : attribute.getValues().get(0).toString();
  }

  /** The value a query requires for {@code key} (or its field-selector twin), or null when it leaves it open. */
  private static String exact(AttributeSet query, String key, String fieldKey) {
    for (String k : List.of(key, fieldKey)) {
      Attribute attribute = query.getAttribute(k);
      if (attribute != null && attribute.getType() == AttributeType.WITH && attribute.getValues().size() == 1
          && !"*".equals(attribute.getValues().get(0).toString())) {
        return attribute.getValues().get(0).toString();
      }
    }
    return null;
  }
}
