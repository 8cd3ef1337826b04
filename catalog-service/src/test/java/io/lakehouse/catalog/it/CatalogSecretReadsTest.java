package io.lakehouse.catalog.it;

import static io.lakehouse.catalog.it.Api.catalogs;
import static io.lakehouse.common.testing.Callers.asAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.lakehouse.common.instances.PodSecrets;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ClusterSimulation;
import io.lakehouse.common.testing.CnpgCrdSetup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Secrets a catalog reads but does not own (its namespace bucket's keys, CloudNativePG's database Secret) come from
 * the informer cache: neither the create's check nor a reconcile pass asks the API server for one it holds (before: 1
 * GET on the POST and 2 per pass, 7 per catalog), and a change of the bucket's keys rolls the server by itself.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = CnpgCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class CatalogSecretReadsTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);
    private static final String TEST_AGENT = "secret-reads-test";

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    KubernetesClient kube;

    @Inject
    InformerCache cache;

    @BeforeEach
    void simulate() {
        ClusterSimulation.of(kube);
    }

    @Test
    void aCatalogOnANamespaceBucketGoesToReadyWithoutReadingASecretFromTheApiServer() throws InterruptedException {
        String ns = Callers.freshNamespace();
        bucket(ns, "QUtJQQ==");
        awaitBucketListed(ns);
        drain();

        asAdmin().body("{\"name\":\"cat\",\"spec\":{\"storage\":{\"bucket\":\"team-bucket\"}}}").post(catalogs(ns))
                .then().log().ifValidationFails().statusCode(201);
        CatalogLifecycleTest.awaitPhase(ns, "cat", "Ready");

        // At most one: the database's Secret, made by the operator moments after the pass created the database and
        // often not in the cache yet when that pass builds the server (a miss is asked, see InstanceReconciler).
        assertThat(calls(ns)).filteredOn(c -> c.startsWith("GET secrets")).hasSizeLessThanOrEqualTo(1)
                .allMatch(c -> c.equals("GET secrets/cat-db-app"));
    }

    @Test
    void newKeysInTheNamespaceBucketRollTheServerWithoutAnyOtherChange() throws InterruptedException {
        String ns = Callers.freshNamespace();
        bucket(ns, "QUtJQQ==");
        awaitBucketListed(ns);
        asAdmin().body("{\"name\":\"cat\",\"spec\":{\"storage\":{\"bucket\":\"team-bucket\"}}}").post(catalogs(ns))
                .then().log().ifValidationFails().statusCode(201);
        CatalogLifecycleTest.awaitPhase(ns, "cat", "Ready");
        // Settled: every Secret the server reads is in the digest (the database's is made by the operator later).
        await().atMost(CONVERGE).until(() -> expectedDigest(ns).equals(digest(ns)));
        String before = digest(ns);
        drain();

        // By the test's own client: its GET before the patch is not the service's.
        try (KubernetesClient own = ownClient()) {
            own.secrets().inNamespace(ns).withName("team-bucket").patch(PatchContext.of(PatchType.JSON_MERGE),
                    "{\"data\":{\"AWS_ACCESS_KEY_ID\":\"TkVXLUtFWQ==\"}}");
        }

        await().atMost(CONVERGE).until(() -> !before.equals(digest(ns)));
        assertThat(calls(ns)).filteredOn(c -> c.startsWith("GET secrets")).isEmpty();
        assertThat(digest(ns)).isEqualTo(expectedDigest(ns));
    }

    /**
     * Another service's private Secret (a Trino's shared secret) and Helm's release records are no pod's of ours: the
     * cache of others' Secrets leaves them out, while it holds the bucket made after them.
     */
    @Test
    void theCacheOfOthersSecretsLeavesOutPrivateSecretsAndHelmReleases() {
        String ns = Callers.freshNamespace();
        othersSecret(ns, "sh.helm.release.v1.lakehouse.v1", Map.of("owner", "helm", "name", "lakehouse"));
        othersSecret(ns, "trino-internal",
                Map.of(Labels.MANAGED_BY, "engines-service", Labels.PRIVATE, "true"));
        othersSecret(ns, "spark-platform", Map.of(Labels.MANAGED_BY, "engines-service"));
        bucket(ns, "QUtJQQ==");
        awaitBucketListed(ns);

        assertThat(cache.secret(ns, "spark-platform")).isPresent();
        assertThat(cache.secret(ns, "sh.helm.release.v1.lakehouse.v1")).isEmpty();
        assertThat(cache.secret(ns, "trino-internal")).isEmpty();
    }

    private void othersSecret(String ns, String name, Map<String, String> labels) {
        kube.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName(name)
                .withLabels(labels).endMetadata().addToData("k", "dg==").build()).create();
    }

    /** The digest of the Secrets the server's pod template references, as they are on the API server now. */
    private String expectedDigest(String ns) {
        Deployment d = kube.apps().deployments().inNamespace(ns).withName("cat").get();
        return PodSecrets.digest(PodSecrets.referenced(d.getSpec().getTemplate().getSpec()),
                name -> Optional.ofNullable(kube.secrets().inNamespace(ns).withName(name).get()));
    }

    private String digest(String ns) {
        Deployment d = kube.apps().deployments().inNamespace(ns).withName("cat").get();
        return d == null ? null : d.getSpec().getTemplate().getMetadata().getAnnotations().get(PodSecrets.DIGEST);
    }

    private void bucket(String ns, String accessKeyId) {
        kube.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("team-bucket")
                        .addToLabels("lakehouse.io/bucket", "true")
                        .addToAnnotations("lakehouse.io/bucket-name", "warehouse")
                        .addToAnnotations("lakehouse.io/endpoint", "http://minio:9000")
                        .addToAnnotations("lakehouse.io/region", "eu-west-1").endMetadata()
                        .addToData("AWS_ACCESS_KEY_ID", accessKeyId).addToData("AWS_SECRET_ACCESS_KEY", "c2VjcmV0")
                        .build())
                .create();
    }

    /** Until the service's cache holds the bucket: else the create's check would rightly ask the API server. */
    private void awaitBucketListed(String ns) {
        await().atMost(CONVERGE).until(() -> cache.secret(ns, "team-bucket").isPresent());
    }

    private void drain() throws InterruptedException {
        while (server.getKubernetesMockServer().takeRequest(10, TimeUnit.MILLISECONDS) != null) {
            // recorded before the measured window
        }
    }

    /** A client whose requests the count leaves out (its user agent). */
    private KubernetesClient ownClient() {
        return new KubernetesClientBuilder().withConfig(new ConfigBuilder(kube.getConfiguration())
                .withUserAgent(TEST_AGENT).build()).build();
    }

    /**
     * The service's requests recorded since {@link #drain} on objects of namespace {@code ns}: verb and path from
     * there.
     */
    private List<String> calls(String ns) throws InterruptedException {
        List<String> calls = new ArrayList<>();
        String prefix = "/namespaces/" + ns + "/";
        for (RecordedRequest r = server.getKubernetesMockServer().takeRequest(10, TimeUnit.MILLISECONDS); r != null;
                r = server.getKubernetesMockServer().takeRequest(10, TimeUnit.MILLISECONDS)) {
            int at = r.getPath().indexOf(prefix);
            if (at >= 0 && !TEST_AGENT.equals(r.getHeader("User-Agent"))) {
                calls.add(r.getMethod() + " " + r.getPath().substring(at + prefix.length()));
            }
        }
        return calls;
    }
}
