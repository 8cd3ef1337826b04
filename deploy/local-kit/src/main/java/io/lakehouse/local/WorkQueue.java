package io.lakehouse.local;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the simulator's actions one at a time, each {@code delay} after the event that asked for it. Actions are keyed
 * by the object they act on: a second event for a key already waiting is absorbed, since the action reads the latest
 * state when it runs. While paused, due actions are held and run on resume.
 */
final class WorkQueue implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WorkQueue.class);
  private static final int HTTP_NOT_FOUND = 404;
  private static final int HTTP_CONFLICT = 409;

  private final Duration delay;
  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "cluster-simulator");
    thread.setDaemon(true);
    return thread;
  });
  private final Map<String, Runnable> waiting = new ConcurrentHashMap<>();
  private final Map<String, Runnable> held = new LinkedHashMap<>();
  private boolean paused;

  WorkQueue(Duration delay) {
    this.delay = delay;
  }

  void submit(String key, Runnable action) {
    if (executor.isShutdown()) {
      return; // an informer event arriving while the simulator closes
    }
    if (waiting.putIfAbsent(key, action) == null) {
      executor.schedule(() -> runDue(key), delay.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  synchronized void pause() {
    paused = true;
  }

  synchronized void resume() {
    paused = false;
    held.forEach(this::submit);
    held.clear();
  }

  private void runDue(String key) {
    Runnable action = waiting.remove(key);
    synchronized (this) {
      if (paused) {
        held.put(key, action);
        return;
      }
    }
    try {
      action.run();
    } catch (KubernetesClientException e) {
      if (e.getCode() == HTTP_CONFLICT || e.getCode() == HTTP_NOT_FOUND) {
        // Someone wrote or deleted the object meanwhile: the event of that write brings us back with fresh state.
        LOG.debug("{}: {}", key, e.getMessage());
      } else {
        LOG.warn("{} failed", key, e);
      }
    } catch (RuntimeException e) {
      LOG.warn("{} failed", key, e);
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
