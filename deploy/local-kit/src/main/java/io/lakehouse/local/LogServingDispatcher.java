package io.lakehouse.local;

import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.internal.MockDispatcher;
import io.fabric8.mockwebserver.internal.SimpleRequest;
import io.lakehouse.local.api.IndexedCrudDispatcher;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local API server's requests: the mock server's recorded answers ({@code /version}, {@code /}) first, as the
 * fabric8 mixed dispatcher does, then the indexed CRUD dispatcher; each counted ({@link RequestCounts}, served at
 * {@code GET /_lakehouse/requests}); plus the pod log endpoint ({@code GET .../pods/{pod}/log}, {@code tailLines}
 * honoured) for the pods whose logs the simulator writes ({@link PodLogs}); other pods are left to the mock.
 * A {@code follow} request gets what is there and ends.
 */
final class LogServingDispatcher extends Dispatcher {

  private static final Pattern LOG = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/?]+)/log(\\?(.*))?");
  private static final Pattern TAIL = Pattern.compile("(^|&)tailLines=(\\d+)");

  private final Map<ServerRequest, Queue<ServerResponse>> responses;
  private final MockDispatcher recorded;
  private final IndexedCrudDispatcher crud;
  private final RequestCounts counts = new RequestCounts();

  LogServingDispatcher(Map<ServerRequest, Queue<ServerResponse>> responses,
      List<CustomResourceDefinitionContext> contexts) {
    this.responses = responses;
    this.recorded = new MockDispatcher(responses);
    this.crud = new IndexedCrudDispatcher(contexts);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    if ("GET".equals(request.getMethod()) && RequestCounts.PATH.equals(request.getPath())) {
      return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
          .setBody(counts.json());
    }
    counts.count(request);
    Matcher m = LOG.matcher(request.getPath());
    if ("GET".equals(request.getMethod()) && m.matches()) {
      var log = PodLogs.read(m.group(1), m.group(2));
      if (log.isPresent()) {
        return new MockResponse().setResponseCode(200).setHeader("Content-Type", "text/plain")
            .setBody(tail(log.get(), m.group(4)));
      }
    }
    Queue<ServerResponse> answers =
        responses.get(new SimpleRequest(HttpMethod.valueOf(request.getMethod()), request.getPath()));
    return answers != null && !answers.isEmpty() ? recorded.dispatch(request) : crud.dispatch(request);
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
