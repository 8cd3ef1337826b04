package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
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

    private ProxiedKube kube;
    private KubernetesClient direct;
    private KubernetesClient throughProxy;
    private InformerCache cache;

    @BeforeEach
    void start() throws Exception {
        kube = new ProxiedKube(Path.of(System.getProperty("lakehouse.crds.dir", "../deploy/crds")), NS, c -> c);
        direct = kube.direct;
        throughProxy = kube.throughProxy;
        cache = new InformerCache(throughProxy, "catalog-service");
    }

    @AfterEach
    void stop() throws Exception {
        cache.close();
        kube.close();
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
        return kube.counters();
    }
}
