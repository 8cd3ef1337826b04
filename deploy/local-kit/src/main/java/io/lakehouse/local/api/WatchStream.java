package io.lakehouse.local.api;

import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.function.Consumer;

/** One watch over a WebSocket: the objects matching {@code query}, from {@code fromVersion} (null: from now). */
final class WatchStream extends WebSocketListener {

  private final AttributeSet query;
  /**
   * The kind ({@link IndexedStore#kind}) the query names, or null when it names none: a change of another kind cannot
   * match, which one comparison tells without matching every attribute of the query.
   */
  private final String kind;
  private final Long fromVersion;
  private final Consumer<WatchStream> onOpen;
  private final Consumer<WatchStream> onEnd;
  /** Whether the client asked for BOOKMARK events ({@code allowWatchBookmarks=true}, as fabric8's informers do). */
  private final boolean bookmarks;
  /** The resourceVersion the client would resume from: the last event sent (or where the watch started). */
  private volatile long sentVersion;
  private volatile WebSocket socket;

  WatchStream(AttributeSet query, Long fromVersion, boolean bookmarks, Consumer<WatchStream> onOpen,
      Consumer<WatchStream> onEnd) {
    this.query = query;
    this.kind = query.containsKey(KubernetesAttributesExtractor.PLURAL) ? IndexedStore.kind(query) : null;
    this.fromVersion = fromVersion;
    this.bookmarks = bookmarks;
    this.onOpen = onOpen;
    this.onEnd = onEnd;
  }

  AttributeSet query() {
    return query;
  }

  Long fromVersion() {
    return fromVersion;
  }

  void deliver(Change change) {
    if (kind != null && !kind.equals(change.kind())) {
      return;
    }
    String event = change.eventFor(query);
    if (event != null) {
      send(event);
      sentVersion = change.version();
    }
  }

  /** Where the watch starts: a resume from here needs the changes after it. */
  void startsAt(long version) {
    sentVersion = version;
  }

  /**
   * Tells a watch that asked for bookmarks the current resourceVersion when the one it would resume from is about to
   * leave the kept changes (a watch that matched nothing for a while), as a real API server's periodic bookmarks do:
   * its informer then resumes without 410 Gone and without listing again.
   */
  void bookmarkIfBehind(long horizon, long current) {
    if (bookmarks && sentVersion <= horizon) {
      send(Change.event("BOOKMARK", "{\"kind\":\"Bookmark\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\""
          + current + "\"}}"));
      sentVersion = current;
    }
  }

  void send(String event) {
    socket.send(event);
  }

  /** Ends the watch as a real API server does when {@code from} is older than what it keeps. */
  void gone(long from, long oldest) {
    send(Change.event("ERROR", "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
        + "\"message\":\"too old resource version: " + from + " (" + oldest + ")\",\"reason\":\"Expired\","
        + "\"code\":410}"));
    socket.close(1000, "too old resource version");
  }

  @Override
  public void onOpen(WebSocket webSocket, Response response) {
    socket = webSocket;
    onOpen.accept(this);
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    webSocket.close(code, reason);
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    onEnd.accept(this);
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable error, Response response) {
    onEnd.accept(this);
  }
}
