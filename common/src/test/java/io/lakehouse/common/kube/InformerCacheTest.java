package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.impl.cache.Reflector;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cache behind the fault suite's proxy (deploy/faults, {@code kube-errors}): after the API server
 * drops the watches and fails the next watch and list requests, the informer watches again by itself,
 * so an object deleted by hand in the meantime leaves the cache (the reconciler then recreates it).
 */
class InformerCacheTest {

    private static final String NS = "informers";

    private ProxiedKube kube;
    private KubernetesClient direct;
    private KubernetesClient throughProxy;
    private InformerCache cache;

    @BeforeEach
    void start() throws Exception {
        kube = new ProxiedKube(Files.createTempDirectory("no-crds"), NS,
                c -> c.withRequestRetryBackoffLimit(0).withWatchReconnectInterval(100));
        direct = kube.direct;
        throughProxy = kube.throughProxy;
        cache = new InformerCache(throughProxy, "test-service");
        cache.start(List.of(ResourceKind.CONFIG_MAP), 10);
    }

    @AfterEach
    void stop() throws Exception {
        cache.close();
        kube.close();
    }

    @Test
    void watchesAgainAfterFailedWatchesAndListsAndSeesWhatWasDeletedMeanwhile() throws Exception {
        direct.configMaps().inNamespace(NS).resource(configMap("kept")).create();
        direct.configMaps().inNamespace(NS).resource(configMap("deleted-by-hand")).create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> cache.get(ResourceKind.CONFIG_MAP, NS, "deleted-by-hand").isPresent());

        // the open watch dropped, then every request fails for a while (watches and relists alike)
        faults("rate410=0.0001&rate500=1");
        await().atMost(Duration.ofSeconds(20)).until(() -> injected500() >= 3);
        direct.configMaps().inNamespace(NS).withName("deleted-by-hand").delete();
        faults("");

        await().atMost(Duration.ofSeconds(30))
                .until(() -> cache.get(ResourceKind.CONFIG_MAP, NS, "deleted-by-hand").isEmpty());
        assertThat(cache.get(ResourceKind.CONFIG_MAP, NS, "kept")).isPresent();
        await().atMost(Duration.ofSeconds(10)).until(cache::isWatching);
        assertThat(cache.stoppedKinds()).isEmpty();
    }

    @Test
    void theClientsOwnPeriodicWatchRestartsAreNoGapNeitherListedAgainNorReportedAsChanges() throws Exception {
        direct.configMaps().inNamespace(NS).resource(configMap("steady")).create();
        // a watch that restarts reconnects after 2 s (as on a loaded API server): the watchdog sees it down
        KubernetesClient slowReconnects = new KubernetesClientBuilder().withConfig(new ConfigBuilder(
                throughProxy.getConfiguration()).withWatchReconnectInterval(2000).build()).build();
        InformerCache restarting = new WatchRestartingCache(slowReconnects);
        try {
            restarting.start(List.of(ResourceKind.CONFIG_MAP), 10);
            AtomicInteger reported = new AtomicInteger();
            restarting.onChange(changed -> reported.incrementAndGet());
            var informer = restarting.informerOf(ResourceKind.CONFIG_MAP);

            // fabric8 restarts the watch every 3-6 s here (every 5-10 min in production): nothing changed, nothing
            // to list again (the old watchdog relisted after each restart and reported every object again)
            await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(12))
                    .until(() -> reported.get() == 0 && restarting.informerOf(ResourceKind.CONFIG_MAP) == informer);

            direct.configMaps().inNamespace(NS).resource(configMap("later")).create();
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> restarting.get(ResourceKind.CONFIG_MAP, NS, "later").isPresent());
            assertThat(reported.get()).isEqualTo(1);
        } finally {
            restarting.close();
            slowReconnects.close();
        }
    }

    /** A cache whose informers restart their watches every 3-6 s, as fabric8 does every 5-10 minutes. */
    private static final class WatchRestartingCache extends InformerCache {

        WatchRestartingCache(KubernetesClient client) {
            super(client, "test-service");
        }

        @Override
        SharedIndexInformer<HasMetadata> newInformer(ResourceKind kind) {
            SharedIndexInformer<HasMetadata> informer = super.newInformer(kind);
            try {
                Field reflector = informer.getClass().getDeclaredField("reflector");
                reflector.setAccessible(true);
                ((Reflector<?, ?>) reflector.get(informer)).setMinTimeout(3);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("fabric8's informer changed: " + e, e);
            }
            return informer;
        }
    }

    @Test
    void aStoppedInformerIsReportedThenReplacedByAFreshOne() {
        direct.configMaps().inNamespace(NS).resource(configMap("seen")).create();
        await().atMost(Duration.ofSeconds(10)).until(() -> cache.get(ResourceKind.CONFIG_MAP, NS, "seen").isPresent());
        var stopped = cache.informerOf(ResourceKind.CONFIG_MAP);
        stopped.stop();
        assertThat(stopped.stopped().toCompletableFuture()).isDone();

        await().atMost(Duration.ofSeconds(10)).until(() -> cache.informerOf(ResourceKind.CONFIG_MAP) != stopped
                && cache.stoppedKinds().isEmpty() && cache.isWatching());
        direct.configMaps().inNamespace(NS).withName("seen").delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> cache.get(ResourceKind.CONFIG_MAP, NS, "seen").isEmpty());
        cache.close();
        assertThat(cache.stoppedKinds()).isEmpty(); // a follower has no informers: nothing is dead
    }

    @Test
    void aStartWhoseFirstListsFailWaitsForTheApiServerInsteadOfFailing() throws Exception {
        direct.configMaps().inNamespace(NS).resource(configMap("there")).create();
        faults("rate500=1");
        InformerCache late = new InformerCache(throughProxy, "test-service");
        try {
            CompletableFuture<Void> started =
                    CompletableFuture.runAsync(() -> late.start(List.of(ResourceKind.CONFIG_MAP), 30));
            await().atMost(Duration.ofSeconds(20)).until(() -> injected500() >= 2);
            faults("");
            started.get(30, TimeUnit.SECONDS);
            assertThat(late.get(ResourceKind.CONFIG_MAP, NS, "there")).isPresent();
        } finally {
            late.close();
        }
    }

    @Test
    void aFirstListThatKeepsProgressingIsWaitedForPastTheSyncTimeoutOneWithoutProgressIsNot() throws Exception {
        int objects = (int) (2 * InformerCache.LIST_PAGE + 200); // three pages
        for (int i = 0; i < objects; i++) {
            direct.configMaps().inNamespace(NS).resource(configMap("cm-" + i)).create();
        }
        faults("latencyMs=2000"); // every page takes 2 s: 6 s in all, against a timeout of 3 s without a page
        InformerCache slow = new InformerCache(throughProxy, "test-service");
        try {
            slow.start(List.of(ResourceKind.CONFIG_MAP), 3);
            assertThat(slow.get(ResourceKind.CONFIG_MAP, NS, "cm-" + (objects - 1))).isPresent();
        } finally {
            slow.close();
        }

        faults("rate500=1");
        InformerCache stuck = new InformerCache(throughProxy, "test-service");
        try {
            assertThatThrownBy(() -> stuck.start(List.of(ResourceKind.CONFIG_MAP), 2))
                    .hasMessageContaining("no object listed for 2 s");
        } finally {
            stuck.close();
            faults("");
        }
    }

    private void faults(String query) throws Exception {
        assertThat(kube.faults(query)).isLessThan(300);
    }

    private long injected500() throws Exception {
        String counters = kube.counters();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"injected500\":(\\d+)").matcher(counters);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(NS)
                .addToLabels(Labels.MANAGED_BY, "test-service").endMetadata().addToData("k", "v").build();
    }
}
