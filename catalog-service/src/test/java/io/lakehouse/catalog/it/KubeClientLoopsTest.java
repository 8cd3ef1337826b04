package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes client handles its responses on event loops of its own: while one is held (as an informer's first
 * list of thousands of objects holds it at a start), readiness and the API still answer. Before, the client
 * shared the API's loops and the readiness probe of a restarted service waited behind the informers' parsing.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class KubeClientLoopsTest {

    @Inject
    KubernetesClient client;

    @Inject
    Vertx apiVertx;

    @TestHTTPResource(value = "/health/ready", management = true) // under the management root /q
    URL readiness;

    @Test
    void theApiAndReadinessAnswerWhileTheKubernetesClientsLoopIsBusy() throws Exception {
        String ns = Callers.freshNamespace();
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Context> holding = new CompletableFuture<>();
        HttpClient http = client.getHttpClient();
        HttpRequest list = http.newHttpRequestBuilder().uri(URI.create(client.getMasterUrl() + "api/v1/namespaces"))
                .build();
        http.consumeBytes(list, (buffers, body) -> {
            holding.complete(Vertx.currentContext());
            release.await(30, TimeUnit.SECONDS); // a slow parse of the response, on the loop that received it
            body.consume();
        }).thenAccept(response -> response.body().consume());
        try {
            Context context = holding.get(30, TimeUnit.SECONDS);
            assertThat(context).as("the client's responses are handled on a Vert.x event loop").isNotNull();
            assertThat(context.isEventLoopContext()).isTrue();
            assertThat(context.owner()).as("not on the loops that serve the API").isNotSameAs(apiVertx);

            given().when().get(readiness).then().statusCode(200);
            await().atMost(Duration.ofSeconds(15)).until(() -> asAdmin().get(catalogs(ns)).statusCode() == 200);
        } finally {
            release.countDown();
        }
    }
}
