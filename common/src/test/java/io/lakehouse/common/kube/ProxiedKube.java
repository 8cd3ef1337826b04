package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.lakehouse.local.FaultProxy;
import io.lakehouse.local.LocalKubeServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * local-kit's Kubernetes API behind its fault proxy, with one namespace: a client straight to the server
 * (the test's hands), one through the proxy (the code under test) and the proxy's counters and faults.
 */
final class ProxiedKube implements AutoCloseable {

    final LocalKubeServer server;
    final FaultProxy proxy;
    final KubernetesClient direct;
    final KubernetesClient throughProxy;
    private final HttpClient http = HttpClient.newHttpClient();

    /** @param tune settings of the proxied client beyond its address (retries, watch reconnects) */
    ProxiedKube(Path crds, String namespace, UnaryOperator<ConfigBuilder> tune) throws Exception {
        server = new LocalKubeServer(crds).start(0);
        proxy = new FaultProxy(URI.create(server.url())).start(0);
        direct = server.newClient();
        throughProxy = new KubernetesClientBuilder().withConfig(tune.apply(new ConfigBuilder(Config.empty())
                .withMasterUrl("http://127.0.0.1:" + proxy.port()).withHttp2Disable(true)).build()).build();
        direct.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
                .build()).create();
    }

    /** The proxy's counters as JSON (requests by method, injected faults). */
    String counters() throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(controlUrl(""))).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Sets the faults ({@code rate500=1&...}; "" for none); the HTTP status of the answer. */
    int faults(String query) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(controlUrl(query.isEmpty() ? "" : "?" + query)))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private String controlUrl(String query) {
        return "http://127.0.0.1:" + proxy.port() + "/_faults" + query;
    }

    @Override
    public void close() throws Exception {
        throughProxy.close();
        direct.close();
        proxy.close();
        server.close();
    }
}
