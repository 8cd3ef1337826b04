package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
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
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A service that starts again finds its objects in place: applying the same desired state writes
 * nothing, even for a kind whose informer has not synced yet (the fault suite's {@code replay}
 * scenario saw a POST of each CloudNativePG Cluster after every restart, answered 409).
 */
class ApplierRestartTest {

    private static final String NS = "restart";

    private final HttpClient http = HttpClient.newHttpClient();
    private LocalKubeServer server;
    private FaultProxy proxy;
    private KubernetesClient direct;
    private KubernetesClient throughProxy;
    private InformerCache cache;

    @BeforeEach
    void start() throws Exception {
        server = new LocalKubeServer(Path.of(System.getProperty("lakehouse.crds.dir", "../deploy/crds"))).start(0);
        proxy = new FaultProxy(URI.create(server.url())).start(0);
        direct = server.newClient();
        throughProxy = new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty())
                .withMasterUrl("http://127.0.0.1:" + proxy.port()).withHttp2Disable(true).build()).build();
        direct.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
                .create();
        cache = new InformerCache(throughProxy, "catalog-service");
    }

    @AfterEach
    void stop() throws Exception {
        cache.close();
        throughProxy.close();
        direct.close();
        proxy.close();
        server.close();
    }

    @Test
    void theClusterOfARunningInstanceIsNotPostedAgainBeforeItsInformerSynced() throws Exception {
        HasMetadata before = new Applier(direct, cache, List.of(ResourceKind.CNPG_CLUSTER))
                .apply(cluster(), ApplyMode.ENFORCE).live();

        Applied again = new Applier(throughProxy, cache, List.of(ResourceKind.CNPG_CLUSTER))
                .apply(cluster(), ApplyMode.ENFORCE);

        assertThat(again.result()).isEqualTo(ApplyResult.UNCHANGED);
        assertThat(again.live().getMetadata().getResourceVersion())
                .isEqualTo(before.getMetadata().getResourceVersion());
        assertThat(counters()).doesNotContain("\"mutating\"").doesNotContain("method.POST");
    }

    @Test
    void onceSyncedAMissAnswersFromTheCacheAndCreates() throws Exception {
        cache.start(List.of(ResourceKind.CNPG_CLUSTER), 10);
        Applied created = new Applier(throughProxy, cache, List.of(ResourceKind.CNPG_CLUSTER))
                .apply(cluster(), ApplyMode.ENFORCE);

        assertThat(created.result()).isEqualTo(ApplyResult.CREATED);
        assertThat(counters()).contains("\"method.POST\":1");
    }

    private static HasMetadata cluster() {
        ObjectMeta meta = new ObjectMetaBuilder().withName("sales-db").withNamespace(NS)
                .addToLabels(Labels.MANAGED_BY, "catalog-service").addToLabels(Labels.INSTANCE, "sales")
                .addToLabels(Labels.INSTANCE_KIND, "iceberg-catalog").build();
        return CnpgClusters.of(meta, "polaris", "polaris", "1Gi", null, null, null);
    }

    private String counters() throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + "/_faults")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
