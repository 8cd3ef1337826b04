package io.lakehouse.local.api;

import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open watches and the recent changes they may resume from. A watch that names a resourceVersion gets the changes
 * after it, as from a real API server, instead of the fabric8 mock's ADDED for everything that exists (which never
 * told a resuming informer about what was deleted meanwhile); a resourceVersion older than the changes kept gets
 * "410 Gone", and the client lists again. The dispatcher calls {@link #publish} under its write lock and
 * {@link #open} under its read lock, so a watch sees every change exactly once.
 */
final class Watches {

  private final int capacity;
  private final Deque<Change> history = new ArrayDeque<>();
  private final Set<WatchStream> streams = ConcurrentHashMap.newKeySet();
  /** Every change after this resourceVersion is in {@link #history}. */
  private long horizon;

  /** Keeps the last {@code capacity} changes for resuming watches. */
  Watches(int capacity) {
    this.capacity = capacity;
  }

  void publish(Change change) {
    history.addLast(change);
    if (history.size() > capacity) {
      horizon = history.removeFirst().version();
    }
    for (WatchStream stream : streams) {
      try {
        stream.deliver(change);
        stream.bookmarkIfBehind(horizon, change.version());
      } catch (RuntimeException e) {
        streams.remove(stream); // its socket is gone: the write that caused this change must not fail for it
      }
    }
  }

  /**
   * Starts {@code stream}: from {@code current} (the objects it matches now, sent as ADDED) when it names no
   * resourceVersion (or "0"), else from the changes after the one it names.
   */
  void open(WatchStream stream, List<Map.Entry<AttributeSet, String>> current) {
    Long from = stream.fromVersion();
    if (from == null) {
      stream.startsAt(history.isEmpty() ? horizon : history.getLast().version());
      current.forEach(entry -> stream.send(Change.event("ADDED", entry.getValue())));
    } else if (from < horizon) {
      stream.gone(from, horizon);
      return;
    } else {
      stream.startsAt(from);
      history.stream().filter(change -> change.version() > from).forEach(stream::deliver);
    }
    streams.add(stream);
  }

  void close(WatchStream stream) {
    streams.remove(stream);
  }

  /** Forgets the changes (the store was emptied): watches resuming from before now get 410 Gone. */
  void reset(long now) {
    history.clear();
    horizon = now;
  }
}
