package io.lakehouse.local;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The logs of the pods the simulator plays (the mock API server has no kubelet to ask): written by
 * the simulated operators, served by {@link LogServingDispatcher} at the pod log endpoint. One
 * process holds both the local API and the simulator, so a shared map is enough.
 */
public final class PodLogs {

  private static final Map<String, StringBuilder> LOGS = new ConcurrentHashMap<>();

  private PodLogs() {}

  public static void append(String namespace, String pod, String line) {
    LOGS.computeIfAbsent(namespace + "/" + pod, key -> new StringBuilder()).append(line).append('\n');
  }

  public static Optional<String> read(String namespace, String pod) {
    StringBuilder log = LOGS.get(namespace + "/" + pod);
    if (log == null) {
      return Optional.empty();
    }
    synchronized (log) {
      return Optional.of(log.toString());
    }
  }

  public static void remove(String namespace, String pod) {
    LOGS.remove(namespace + "/" + pod);
  }
}
