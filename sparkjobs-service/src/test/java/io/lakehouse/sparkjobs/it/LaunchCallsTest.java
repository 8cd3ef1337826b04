package io.lakehouse.sparkjobs.it;

import static io.lakehouse.common.testing.Callers.asAdmin;
import static io.lakehouse.sparkjobs.it.Api.jobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.lakehouse.common.kube.InformerCache;
import io.lakehouse.common.kube.ResourceKind;
import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ThreadAllocation;
import io.lakehouse.sparkjobs.kube.SparkAccounts;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a launch costs the Kubernetes API server (quality bar P12): once the namespace's {@code spark} account is
 * there, a launch sends its SparkApplication and its script's ConfigMap and nothing else; an account deleted by
 * hand comes back at the next launch.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = SparkCrdSetup.class)
@QuarkusTestResource(TestStack.class)
class LaunchCallsTest {

    private static final String FORM = "{\"name\":\"%s\",\"image\":\"apache/spark:3.5.3\","
            + "\"source\":{\"type\":\"script\",\"script\":\"print(1)\\n\"}}";

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    KubernetesClient kube;

    @Inject
    InformerCache cache;

    @Inject
    SparkAccounts accounts;

    @Test
    void launchesInANamespaceWithItsSparkAccountSendOnlyTheirApplicationAndScript() throws InterruptedException {
        String ns = Callers.freshNamespace();
        launch(ns, "first");
        awaitAccountCached(cache, ns, true);

        drain(server);
        for (int i = 0; i < 5; i++) {
            launch(ns, "job-" + i);
        }
        // Calls by verb and resource, in this namespace: 5 launches, 10 calls, the account never read again.
        assertThat(callsIn(server, ns)).isEqualTo(Map.of("POST sparkapplications", 5, "POST configmaps", 5));
    }

    /**
     * The account check every launch makes, once the account is cached, in heap bytes (the same on any machine):
     * 22 KB before (the three objects built with fabric8's builders only to ask the cache), now the three
     * lookups by name. Measured after warm-up, so the JIT's own allocations stay out.
     */
    @Test
    void aLaunchsAccountCheckAsksTheCacheByNameWithoutBuildingTheObjects() {
        String ns = Callers.freshNamespace();
        launch(ns, "first");
        awaitAccountCached(cache, ns, true);
        long bytes = ThreadAllocation.perCall(2000, () -> assertThat(accounts.ensure(ns)).isEmpty());
        assertThat(bytes).as("heap bytes per account check of a launch").isLessThan(1024);
    }

    @Test
    void aFinishedJobsDriverLinesAreKeptWithOneReadOfItsLog() throws InterruptedException {
        String ns = Callers.freshNamespace();
        launch(ns, "done");
        Operator.pods(kube, ns, "done", 0);
        drain(server);
        Operator.state(kube, ns, "done", "COMPLETED", "2026-12-01T10:00:00Z", "2026-12-01T10:05:00Z");

        // The tracker records the end, then keeps the driver's last lines: one GET of the log, no read or watch of
        // the pod first.
        List<String> podCalls = new ArrayList<>();
        await().atMost(Api.PROPAGATION).until(() -> {
            podCalls.addAll(callsOn(ns, "pods"));
            return podCalls.stream().anyMatch(c -> c.startsWith("GET pods/done-driver/log"));
        });
        assertThat(podCalls).containsExactly("GET pods/done-driver/log?tailLines=200");
    }

    @Test
    void aSparkAccountDeletedByHandIsMadeAgainAtTheNextLaunch() {
        String ns = Callers.freshNamespace();
        launch(ns, "first");
        awaitAccountCached(cache, ns, true);

        kube.serviceAccounts().inNamespace(ns).withName("spark").delete();
        kube.rbac().roleBindings().inNamespace(ns).withName("spark").delete();
        awaitAccountCached(cache, ns, false);
        launch(ns, "second");

        assertThat(kube.serviceAccounts().inNamespace(ns).withName("spark").get()).isNotNull();
        assertThat(kube.rbac().roles().inNamespace(ns).withName("spark").get()).isNotNull();
        assertThat(kube.rbac().roleBindings().inNamespace(ns).withName("spark").get().getSubjects().get(0).getName())
                .isEqualTo("spark");
    }

    @Test
    void anAdminsOwnSparkAccountIsLeftAsItIs() {
        String ns = Callers.freshNamespace();
        kube.serviceAccounts().inNamespace(ns).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName("spark").withNamespace(ns).withLabels(Map.of("team", "data")).endMetadata()
                .withAutomountServiceAccountToken(false).build()).create();

        launch(ns, "first");
        launch(ns, "second");

        assertThat(kube.serviceAccounts().inNamespace(ns).withName("spark").get().getMetadata().getLabels())
                .isEqualTo(Map.of("team", "data"));
        assertThat(kube.rbac().roleBindings().inNamespace(ns).withName("spark").get()).isNotNull();
    }

    private static void launch(String ns, String name) {
        asAdmin().body(String.format(FORM, name)).post(jobs(ns)).then().statusCode(201);
    }

    /** Waits until the service's cache shows the account's three objects (or none of the deleted ones). */
    static void awaitAccountCached(InformerCache cache, String ns, boolean present) {
        await().atMost(Api.PROPAGATION).until(() -> List.of(ResourceKind.SERVICE_ACCOUNT, ResourceKind.ROLE,
                ResourceKind.ROLE_BINDING).stream().filter(k -> present || k != ResourceKind.ROLE)
                .allMatch(k -> cache.get(k, ns, "spark").isPresent() == present));
    }

    static void drain(KubernetesServer server) throws InterruptedException {
        while (server.getKubernetesMockServer().takeRequest(10, TimeUnit.MILLISECONDS) != null) {
            // recorded before the measured launches
        }
    }

    /** The requests recorded since the last look on {@code resource} in namespace {@code ns}: verb, path from there. */
    private List<String> callsOn(String ns, String resource) throws InterruptedException {
        List<String> calls = new ArrayList<>();
        String prefix = "/namespaces/" + ns + "/";
        for (RecordedRequest r = server.getKubernetesMockServer().takeRequest(10, TimeUnit.MILLISECONDS); r != null;
                r = server.getKubernetesMockServer().takeRequest(10, TimeUnit.MILLISECONDS)) {
            int at = r.getPath().indexOf(prefix);
            if (at >= 0 && r.getPath().startsWith(resource, at + prefix.length())) {
                calls.add(r.getMethod() + " " + r.getPath().substring(at + prefix.length()));
            }
        }
        return calls;
    }

    /** The requests recorded since {@link #drain} on objects of namespace {@code ns}, counted by verb and resource. */
    static Map<String, Integer> callsIn(KubernetesServer server, String ns) throws InterruptedException {
        List<RecordedRequest> requests = new ArrayList<>();
        for (RecordedRequest r = server.getKubernetesMockServer().takeRequest(10, TimeUnit.MILLISECONDS); r != null;
                r = server.getKubernetesMockServer().takeRequest(10, TimeUnit.MILLISECONDS)) {
            requests.add(r);
        }
        Map<String, Integer> calls = new TreeMap<>();
        String prefix = "/namespaces/" + ns + "/";
        for (RecordedRequest r : requests) {
            String path = r.getPath().replaceFirst("\\?.*", "");
            int at = path.indexOf(prefix);
            if (at >= 0) {
                String resource = path.substring(at + prefix.length()).split("/")[0];
                calls.merge(r.getMethod() + " " + resource, 1, Integer::sum);
            }
        }
        return calls;
    }
}
