package io.lakehouse.common.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.quarkus.runtime.ResettableSystemProperties;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.concurrent.TimeUnit;

/**
 * The Kubernetes client on Vert.x event loops of its own. Quarkus' default client shares the API's event loops, and
 * fabric8 parses every response (an informer's list page of 500 objects, the deserializers it builds the first
 * time) on the loop that received it: at a start, the informers' first lists held the loops that answer the API
 * and {@code /q/health/ready} for seconds (docs/benchmarks.md "Boot and RSS: what starts and what stays").
 * Configuration and serialization stay Quarkus' ({@code quarkus.kubernetes-client.*}, {@code KUBERNETES_*}).
 */
@ApplicationScoped
class KubeClientProducer {

    /** Two loops: the informers' parsing may use both cores of the target nodes, never the API's loops. */
    private static final int EVENT_LOOPS = 2;

    /** Created with the client, closed after it. */
    private Vertx vertx;

    @Produces
    @Singleton
    KubernetesClient client(KubernetesSerialization serialization, Config config) {
        // As Quarkus' own fallback instance: the JDK's name resolver, no file cache or class-path files on disk
        // (the images' root file system is read-only).
        try (var resolver = ResettableSystemProperties.of("vertx.disableDnsResolver", "true")) {
            vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(EVENT_LOOPS).setFileSystemOptions(
                    new FileSystemOptions().setFileCachingEnabled(false).setClassPathResolvingEnabled(false)));
        }
        return new KubernetesClientBuilder().withKubernetesSerialization(serialization).withConfig(config)
                .withHttpClientFactory(new VertxHttpClientFactory(vertx)).build();
    }

    void close(@Disposes KubernetesClient client) {
        client.close();
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().orTimeout(5, TimeUnit.SECONDS)
                    .exceptionally(e -> null).join();
        }
    }
}
