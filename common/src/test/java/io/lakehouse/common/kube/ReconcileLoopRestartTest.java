package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lakehouse.common.config.ReconcileSettings;
import io.lakehouse.common.testing.TestServers;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * P8 in small: a service that starts again with its instances converged lists what it manages in pages, asks the API
 * server for nothing else and writes nothing. Before, the informers' first adds queued every instance while the
 * caches were still filling, and each of those passes fetched every object of a kind not yet synced (catalog-service
 * made 716 GETs while restarting with 1,176 catalogs), competing with the one huge LIST per kind that did not finish
 * within the client's request timeout on a loaded machine.
 */
class ReconcileLoopRestartTest {

    private static final String MANAGED_BY = "restart-test-service";
    private static final String AGENT = "restart-test";
    private static final String INSTANCE_KIND = "iceberg-catalog";
    private static final List<String> NAMESPACES = List.of("restart-a", "restart-b", "restart-c", "restart-d");
    private static final int INSTANCES = 600;
    /** Bulky Secrets make the Secret list the slow one, as the service's real Secrets do. */
    private static final String BULK = Base64.getEncoder().encodeToString("x".repeat(3072).getBytes());
    private static final List<ResourceKind> KINDS = List.of(ResourceKind.CONFIG_MAP, ResourceKind.SECRET);

    private ProxiedKube kube;
    private ReconcileLoop loop;
    private final Set<String> reconciled = ConcurrentHashMap.newKeySet();

    @BeforeAll
    static void schema() {
        LeaderLockTest.schema();
    }

    @BeforeEach
    void start() throws Exception {
        kube = new ProxiedKube(Files.createTempDirectory("no-crds"), NAMESPACES.get(0), c -> c.withUserAgent(AGENT));
        for (String ns : NAMESPACES.subList(1, NAMESPACES.size())) {
            kube.direct.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata()
                    .build()).create();
        }
    }

    @AfterEach
    void stop() throws Exception {
        if (loop != null) {
            loop.close();
        }
        kube.close();
    }

    @Test
    void aRestartWithEveryInstanceConvergedListsInPagesAndNeitherGetsNorWrites() throws Exception {
        List<String> keys = IntStream.range(0, INSTANCES)
                .mapToObj(i -> NAMESPACES.get(i % NAMESPACES.size()) + "/c" + i).toList();
        createConverged(keys);

        InformerCache cache = new InformerCache(kube.throughProxy, MANAGED_BY);
        Applier applier = new Applier(kube.throughProxy, cache, KINDS);
        loop = new ReconcileLoop(key -> {
            desired(key).forEach(o -> assertThat(applier.apply(o, ApplyMode.ENFORCE).result())
                    .isEqualTo(ApplyResult.UNCHANGED));
            reconciled.add(key);
            return null;
        }, cache, () -> keys, LeaderLockTest.dataSource(), TestServers.reactivePool("catalog"), settings(), "restart_" + System.nanoTime(), KINDS,
                INSTANCE_KIND::equals, OpenTelemetry.noop().getTracer("test"));
        loop.start();

        await().atMost(Duration.ofSeconds(90)).until(() -> reconciled.size() == INSTANCES);
        long pages = (INSTANCES + InformerCache.LIST_PAGE - 1) / InformerCache.LIST_PAGE
                + (2L * INSTANCES + InformerCache.LIST_PAGE - 1) / InformerCache.LIST_PAGE;
        assertThat(calls()).as("the restarted service's requests by verb")
                .isEqualTo(Map.of("list", pages, "watch", (long) KINDS.size()));
    }

    /** The objects of each instance as the service would have left them: stamped, already in place. */
    private void createConverged(List<String> keys) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> created = new ArrayList<>();
            for (String key : keys) {
                created.add(pool.submit(() -> desired(key).forEach(o -> {
                    HasMetadata stamped = o instanceof Secret ? o : Checksums.stamp(o);
                    kindOf(stamped).operations(kube.direct).inNamespace(o.getMetadata().getNamespace())
                            .resource(stamped).create();
                })));
            }
            for (Future<?> f : created) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static ResourceKind kindOf(HasMetadata o) {
        return KINDS.stream().filter(k -> k.key().equals(ResourceKind.keyOf(o))).findFirst().orElseThrow();
    }

    /** A root ConfigMap and two Secrets per instance. */
    private static List<HasMetadata> desired(String key) {
        String ns = key.substring(0, key.indexOf('/'));
        String name = key.substring(key.indexOf('/') + 1);
        return List.of(
                new ConfigMapBuilder().withMetadata(meta(ns, name, name)).addToData("instance", name).build(),
                new SecretBuilder().withMetadata(meta(ns, name, name + "-tls")).addToData("tls.key", BULK).build(),
                new SecretBuilder().withMetadata(meta(ns, name, name + "-admin")).addToData("password", BULK).build());
    }

    private static ObjectMeta meta(String ns, String instance, String name) {
        return new ObjectMetaBuilder().withNamespace(ns).withName(name).addToLabels(Labels.MANAGED_BY, MANAGED_BY)
                .addToLabels(Labels.INSTANCE, instance).addToLabels(Labels.INSTANCE_KIND, INSTANCE_KIND).build();
    }

    /** The service's requests by verb, as the local API server counted them (its User-Agent). */
    private Map<String, Long> calls() throws Exception {
        String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(kube.server.url()
                + "/_lakehouse/requests")).build(), HttpResponse.BodyHandlers.ofString()).body();
        Map<String, Long> verbs = new TreeMap<>();
        new ObjectMapper().readTree(body).path(AGENT).fields()
                .forEachRemaining(e -> verbs.put(e.getKey(), e.getValue().asLong()));
        return verbs;
    }

    private static ReconcileSettings settings() {
        return new ReconcileSettings() {
            @Override
            public boolean enabled() {
                return true;
            }

            @Override
            public int workers() {
                return 4;
            }

            @Override
            public Duration cacheSyncTimeout() {
                return Duration.ofSeconds(60);
            }

            @Override
            public Duration leaseDuration() {
                return Duration.ofSeconds(10);
            }

            @Override
            public Duration leaseRenewInterval() {
                return Duration.ofSeconds(2);
            }
        };
    }
}
