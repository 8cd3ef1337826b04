package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The teardown race of the fault suite (an orphaned CloudNativePG Cluster of a catalog deleted right after it
 * converged): what a pass created counts as the instance's own before its watch event arrived, so a deletion that
 * asks the cache for the instance's objects deletes it too, and nothing labelled with the instance is left.
 */
class InformerCacheUnseenTest {

    private static final String NS = "unseen";
    private static final String INSTANCE = "sales";
    private static final String KIND = "iceberg-catalog";
    private static final List<ResourceKind> KINDS =
            List.of(ResourceKind.CONFIG_MAP, ResourceKind.SECRET, ResourceKind.CNPG_CLUSTER);

    private ProxiedKube kube;
    private InformerCache cache;

    @BeforeEach
    void start() throws Exception {
        kube = new ProxiedKube(Path.of(System.getProperty("lakehouse.crds.dir", "../deploy/crds")), NS,
                c -> c.withRequestRetryBackoffLimit(0).withWatchReconnectInterval(100));
        cache = new InformerCache(kube.throughProxy, "catalog-service");
        cache.start(KINDS, 10);
    }

    @AfterEach
    void stop() throws Exception {
        cache.close();
        kube.close();
    }

    @Test
    void objectsCreatedWhileTheWatchLagsAreDeletedWithTheInstanceAndNothingIsLeft() throws Exception {
        // The watches drop and cannot come back: the cache sees nothing of what the pass creates next.
        faults("rate410=0.0001&rate500=1");
        await().atMost(Duration.ofSeconds(20)).until(() -> injected500() >= 2);
        Applier applier = new Applier(kube.direct, cache, KINDS);
        for (HasMetadata o : desired()) {
            assertThat(applier.apply(o, ApplyMode.ENFORCE).result()).isEqualTo(ApplyResult.CREATED);
        }
        assertThat(cache.get(ResourceKind.CNPG_CLUSTER, NS, INSTANCE + "-db")).as("the watch lags").isEmpty();

        List<HasMetadata> owned = owned();
        owned.forEach(applier::delete);

        assertThat(owned).extracting(o -> o.getKind() + " " + o.getMetadata().getName())
                .containsExactlyInAnyOrder("ConfigMap sales-instance", "Secret sales-s3", "Cluster sales-db");
        assertThat(labelled(kube.direct)).as("objects labelled with the instance left in the API").isEmpty();
        assertThat(owned()).as("deleted: nothing to wait for").isEmpty();
    }

    @Test
    void onceTheWatchDeliversThemTheyAreOwnedOnceFromTheCache() throws Exception {
        Applier applier = new Applier(kube.throughProxy, cache, KINDS);
        desired().forEach(o -> applier.apply(o, ApplyMode.ENFORCE));

        await().atMost(Duration.ofSeconds(10))
                .until(() -> cache.get(ResourceKind.CNPG_CLUSTER, NS, INSTANCE + "-db").isPresent()
                        && cache.get(ResourceKind.SECRET, NS, INSTANCE + "-s3").isPresent()
                        && cache.get(ResourceKind.CONFIG_MAP, NS, INSTANCE + "-instance").isPresent());
        assertThat(owned()).hasSize(3);
        assertThat(cache.ownedBy(ResourceKind.CNPG_CLUSTER, NS, "trino", INSTANCE)).as("another kind's").isEmpty();
    }

    private List<HasMetadata> owned() {
        List<HasMetadata> owned = new ArrayList<>();
        KINDS.forEach(kind -> owned.addAll(cache.ownedBy(kind, NS, KIND, INSTANCE)));
        return owned;
    }

    private static List<HasMetadata> desired() {
        return List.of(
                new ConfigMapBuilder().withMetadata(meta(INSTANCE + "-instance")).build(),
                new SecretBuilder().withMetadata(meta(INSTANCE + "-s3")).withType("Opaque").build(),
                CnpgClusters.of(meta(INSTANCE + "-db"), "polaris", "polaris", "1Gi", null, null, null));
    }

    private static ObjectMeta meta(String name) {
        return new ObjectMetaBuilder().withName(name).withNamespace(NS)
                .addToLabels(Labels.MANAGED_BY, "catalog-service").addToLabels(Labels.INSTANCE, INSTANCE)
                .addToLabels(Labels.INSTANCE_KIND, KIND).build();
    }

    /** What the API server holds labelled with the instance, of every kind the test creates. */
    private static List<String> labelled(KubernetesClient client) {
        return KINDS.stream()
                .flatMap(kind -> kind.operations(client).inNamespace(NS).withLabel(Labels.INSTANCE, INSTANCE).list()
                        .getItems().stream())
                .map(o -> o.getKind() + " " + o.getMetadata().getName())
                .toList();
    }

    private void faults(String query) throws Exception {
        assertThat(kube.faults(query)).isLessThan(300);
    }

    private long injected500() throws Exception {
        Matcher m = Pattern.compile("\"injected500\":(\\d+)").matcher(kube.counters());
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
