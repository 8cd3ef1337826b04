package io.lakehouse.local.api;

import io.fabric8.mockwebserver.crud.AttributeSet;

/**
 * One change of one object, at resourceVersion {@code version}: created ({@code before} null), modified, or deleted
 * ({@code after} null; {@code json} is then its last state stamped with the deletion's resourceVersion).
 */
record Change(long version, AttributeSet before, AttributeSet after, String json, String kind) {

  /** The change, of the kind ({@link IndexedStore#kind}) its object's attributes name. */
  Change(long version, AttributeSet before, AttributeSet after, String json) {
    this(version, before, after, json, IndexedStore.kind(after != null ? after : before));
  }

  /** The watch event this change means to a watch of {@code query}, or null when it does not concern it. */
  String eventFor(AttributeSet query) {
    boolean was = before != null && before.matches(query);
    boolean is = after != null && after.matches(query);
    if (was && is) {
      return event("MODIFIED", json);
    }
    if (was) {
      return event("DELETED", json);
    }
    return is ? event("ADDED", json) : null;
  }

  /** A watch event as the API server frames it; the object is already JSON, so it is not parsed again. */
  static String event(String type, String objectJson) {
    return "{\"type\":\"" + type + "\",\"object\":" + objectJson + "}";
  }
}
