package io.lakehouse.local;

import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mock's CRUD dispatcher plus the pod log endpoint ({@code GET .../pods/{pod}/log}, {@code tailLines}
 * honoured) for the pods whose logs the simulator writes ({@link PodLogs}); other pods are left to the mock.
 * A {@code follow} request gets what is there and ends.
 */
final class LogServingDispatcher extends KubernetesMixedDispatcher {

  private static final Pattern LOG = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/?]+)/log(\\?(.*))?");
  private static final Pattern TAIL = Pattern.compile("(^|&)tailLines=(\\d+)");

  LogServingDispatcher(Map<ServerRequest, Queue<ServerResponse>> responses,
      List<CustomResourceDefinitionContext> contexts) {
    super(responses, contexts);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    Matcher m = LOG.matcher(request.getPath());
    if ("GET".equals(request.getMethod()) && m.matches()) {
      var log = PodLogs.read(m.group(1), m.group(2));
      if (log.isPresent()) {
        return new MockResponse().setResponseCode(200).setHeader("Content-Type", "text/plain")
            .setBody(tail(log.get(), m.group(4)));
      }
    }
    return super.dispatch(request);
  }

  private static String tail(String log, String query) {
    Matcher t = TAIL.matcher(query == null ? "" : query);
    if (!t.find()) {
      return log;
    }
    int n = Integer.parseInt(t.group(2));
    List<String> lines = Arrays.asList(log.split("\n"));
    return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size())) + "\n";
  }
}
