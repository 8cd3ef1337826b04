package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lakehouse.common.testing.ThreadAllocation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pass that finds a version of a live object no pass compared yet (every object after a restart, one a controller's
 * status update changed) serializes the desired object once, for its checksum and the comparison, and reads the live
 * version's kept JSON once ({@link WholeJson}). Before, the desired object was serialized twice (checksum, comparison)
 * and its checksum went through maps and a string: 150 KB of heap per apply of this Deployment on the old code,
 * 86 KB now. Heap bytes on the calling thread, the same on any machine, after warm-up.
 */
class ApplierSerializationsTest {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private KubernetesClient client;

    @BeforeEach
    void client() {
        // Nothing listens: an apply that finds its object carrying the desired state never calls it, one that
        // finds drift fails on its update.
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:1")
                .withRequestRetryBackoffLimit(0).build()).build();
    }

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void anApplyOverAnUncomparedLiveVersionSerializesEachObjectOnce() {
        Deployment live = server();
        Checksums.stamp(live);
        live.getMetadata().setResourceVersion("7");
        live.getMetadata().setUid("b1f4");
        live.setStatus(new DeploymentStatusBuilder().withReplicas(2)
                .withReadyReplicas(2).build());
        Applier applier = new Applier(client, new Holding(client, live), List.of(ResourceKind.DEPLOYMENT));

        // Built beforehand: the builders' own allocation is the kind's, not the apply's.
        Iterator<Deployment> desired = Stream.generate(ApplierSerializationsTest::server).limit(600).toList()
                .iterator();
        long bytes = ThreadAllocation.perCall(200, () -> assertThat(applier.apply(desired.next(), ApplyMode.ENFORCE)
                .result()).isEqualTo(ApplyResult.UNCHANGED));

        assertThat(bytes).as("heap bytes per apply over an uncompared live Deployment").isLessThan(110_000);
    }

    @Test
    void theChecksumStampedIsTheOneOfTheDesiredState() {
        Deployment live = server();
        Checksums.stamp(live);
        live.getMetadata().setResourceVersion("7");
        Applier applier = new Applier(client, new Holding(client, live), List.of(ResourceKind.DEPLOYMENT));

        Deployment desired = server();
        applier.apply(desired, ApplyMode.ENFORCE);

        assertThat(desired.getMetadata().getAnnotations()).containsEntry(Labels.CHECKSUM, Checksums.of(server()));
        Deployment changed = server();
        changed.getSpec().setReplicas(3);
        assertThat(Checksums.of(changed)).isNotEqualTo(Checksums.of(server()));
        assertThat(SERIALIZATION.asJson(desired)).contains(Checksums.of(server()));
    }

    @Test
    void aWholeLiveObjectChangedByHandIsStillSeenAsDrift() {
        Deployment live = server();
        Checksums.stamp(live);
        live.getMetadata().setResourceVersion("7");
        live.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("edited:1");
        Applier applier = new Applier(client, new Holding(client, live), List.of(ResourceKind.DEPLOYMENT));

        assertThatThrownBy(() -> applier.apply(server(), ApplyMode.ENFORCE)).as("the update is sent")
                .isInstanceOf(KubernetesClientException.class);
    }

    /** A synced cache that holds one live object as its informer stores it (compact, whole JSON kept), uncompared. */
    private static final class Holding extends InformerCache {
        private final InformerCacheStore store = new InformerCacheStore();
        private final String key;

        Holding(KubernetesClient client, HasMetadata live) {
            super(client, "test-service");
            key = store.getKey(live);
            store.put(key, live);
        }

        @Override
        public boolean synced(HasMetadata object) {
            return true;
        }

        @Override
        public Optional<HasMetadata> get(HasMetadata desired) {
            return Optional.of(store.get(key));
        }

        @Override
        JsonNode wholeTree(HasMetadata live) {
            return store.wholeTree(live); // kept: a pass of the same desired state compares it each time
        }
    }

    /** A workload of the size a catalog's server has: a few containers, environment, probes. */
    static Deployment server() {
        List<Container> containers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ContainerBuilder c = new ContainerBuilder().withName("c" + i).withImage("server:1")
                    .withArgs("--port", "818" + i)
                    .withNewResources().addToRequests("cpu", new Quantity("250m"))
                    .addToLimits("memory", new Quantity("512Mi")).endResources()
                    .withNewReadinessProbe().withNewHttpGet().withPath("/q/health/ready")
                    .withPort(new IntOrString(8181)).endHttpGet().endReadinessProbe();
            for (int e = 0; e < 10; e++) {
                c.addNewEnv().withName("SETTING_" + e).withValue("value-" + e).endEnv();
            }
            containers.add(c.build());
        }
        return new DeploymentBuilder().withNewMetadata().withName("server").withNamespace("serializations")
                .withLabels(Map.of(Labels.MANAGED_BY, "test-service", Labels.INSTANCE, "sales", Labels.INSTANCE_KIND,
                        "demo"))
                .endMetadata().withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", "server")
                .endSelector().withNewTemplate().withNewMetadata().addToLabels("app", "server").endMetadata()
                .withNewSpec().withContainers(containers).endSpec().endTemplate().endSpec().build();
    }
}
