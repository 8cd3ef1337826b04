package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An instance's objects are found through the store's index by instance (P6: what a teardown pass reads does
 * not grow with the number of other instances), and the index follows every change of the store. A version keeps its
 * whole JSON until a pass compared it.
 */
class InformerCacheStoreTest {

    private static final String NS = "sales";

    private final InformerCacheStore store = new InformerCacheStore();

    @Test
    void oneInstancesObjectsAmongTwoThousandOthersAreFoundByTheirLabels() {
        for (int i = 0; i < 2000; i++) {
            put(configMap("other-" + i, NS, "other-" + i, "1"));
        }
        put(configMap("lake-instance", NS, "lake", "1"));
        put(configMap("lake-config", NS, "lake", "1"));
        put(configMap("lake-config", "elsewhere", "lake", "1"));
        put(new SecretBuilder().withNewMetadata().withName("lake-s3").withNamespace(NS).withResourceVersion("1")
                .withLabels(labels("lake", "demo")).endMetadata().build());

        assertThat(names(NS, "demo", "lake")).containsExactlyInAnyOrder("lake-instance", "lake-config", "lake-s3");
        assertThat(store.ownedBy(NS, "other-kind", "lake")).as("another kind's instance of that name").isEmpty();
        assertThat(store.ownedBy(NS, "demo", "nobody")).isEmpty();
        assertThat(store.ownedBy(NS, "demo", "other-1999")).hasSize(1);
    }

    @Test
    void theIndexFollowsUpdatesRelabelsCompactionAndRemovals() {
        ConfigMap config = configMap("lake-config", NS, "lake", "1");
        put(config);
        put(configMap("lake-config", NS, "lake", "2"));
        assertThat(names(NS, "demo", "lake")).containsExactly("lake-config");

        assertThat(CompactObject.isCompact(store.get(NS + "/lake-config"))).isTrue();
        store.verified(store.get(NS + "/lake-config"), "sum");
        assertThat(names(NS, "demo", "lake")).as("a verified copy keeps its labels").containsExactly("lake-config");

        put(configMap("lake-config", NS, "pond", "3"));
        assertThat(store.ownedBy(NS, "demo", "lake")).as("relabelled by hand: no longer the lake's").isEmpty();
        assertThat(names(NS, "demo", "pond")).containsExactly("lake-config");

        ConfigMap unlabelled = configMap("lake-config", NS, "pond", "4");
        unlabelled.getMetadata().setLabels(Map.of());
        put(unlabelled);
        assertThat(store.ownedBy(NS, "demo", "pond")).isEmpty();

        put(configMap("lake-config", NS, "lake", "5"));
        store.remove(NS + "/lake-config");
        assertThat(store.ownedBy(NS, "demo", "lake")).isEmpty();
        assertThat(store.size()).isZero();
    }

    @Test
    void aVersionKeepsItsWholeJsonUntilAPassComparedIt() {
        ConfigMap first = configMap("lake-config", NS, "lake", "1");
        first.getMetadata().setManagedFields(List.of(new ManagedFieldsEntryBuilder().withManager("kubectl").build()));
        first.getMetadata().setAnnotations(Map.of("kubectl.kubernetes.io/last-applied-configuration", "{\"data\":{}}",
                "note", "kept"));
        put(first);
        HasMetadata cached = store.get(NS + "/lake-config");
        assertThat(((ConfigMap) cached).getData()).as("the compact copy holds no data").isNullOrEmpty();
        JsonNode whole = store.wholeTree(cached);
        assertThat(whole.path("data").path("k").asText()).isEqualTo("v");
        assertThat(whole.path("metadata").path("annotations").path("note").asText()).isEqualTo("kept");
        assertThat(whole.path("metadata").has("managedFields")).as("never compared").isFalse();
        assertThat(whole.path("metadata").path("annotations").has("kubectl.kubernetes.io/last-applied-configuration"))
                .isFalse();

        put(configMap("lake-config", NS, "lake", "1"));
        assertThat(store.wholeTree(store.get(NS + "/lake-config"))).as("the same version listed again").isNotNull();
        store.verified(cached, "sum");
        assertThat(store.wholeTree(cached)).as("compared: gone").isNull();
        assertThat(CompactObject.verifies(store.get(NS + "/lake-config"), "sum")).isTrue();
        put(configMap("lake-config", NS, "lake", "1"));
        assertThat(CompactObject.verifies(store.get(NS + "/lake-config"), "sum")).as("a relist keeps what was seen")
                .isTrue();

        put(withData(configMap("lake-config", NS, "lake", "2"), "edited"));
        HasMetadata second = store.get(NS + "/lake-config");
        assertThat(CompactObject.verifies(second, "sum")).as("a new version that changed is not verified").isFalse();
        assertThat(store.wholeTree(cached)).as("an older version's JSON is not handed out").isNull();
        store.verified(cached, "sum");
        assertThat(store.wholeTree(second)).as("comparing an older version leaves the new one whole").isNotNull();

        put(new SecretBuilder().withNewMetadata().withName("lake-s3").withNamespace(NS).withResourceVersion("3")
                .withLabels(labels("lake", "demo")).endMetadata().withData(Map.of("k", "dg==")).build());
        assertThat(store.wholeTree(store.get(NS + "/lake-s3"))).as("a Secret is compared by digest: no JSON").isNull();
        store.remove(NS + "/lake-config");
        assertThat(store.wholeTree(second)).isNull();
    }

    @Test
    void theEchoOfOurOwnCreateIsVerifiedAgainstTheChecksumItWasStampedWith() {
        InformerCacheStore ours = new InformerCacheStore(o -> "7".equals(o.getMetadata().getResourceVersion()));
        ConfigMap created = configMap("lake-config", NS, "lake", "7");
        created.getMetadata().setAnnotations(Map.of(Labels.CHECKSUM, "stamped"));
        ours.put(ours.getKey(created), created);
        assertThat(CompactObject.verifies(ours.get(NS + "/lake-config"), "stamped")).isTrue();
        assertThat(ours.wholeTree(created)).as("nothing left to compare").isNull();

        ConfigMap edited = withData(configMap("lake-config", NS, "lake", "8"), "edited");
        edited.getMetadata().setAnnotations(Map.of(Labels.CHECKSUM, "stamped"));
        ours.put(ours.getKey(edited), edited);
        assertThat(CompactObject.verifies(ours.get(NS + "/lake-config"), "stamped")).as("not our version").isFalse();
        assertThat(ours.wholeTree(edited)).isNotNull();

        ours.verifiedAsCreated(edited); // the watch delivered our create before its answer was recorded
        assertThat(CompactObject.verifies(ours.get(NS + "/lake-config"), "stamped")).isTrue();
        assertThat(ours.wholeTree(edited)).isNull();
    }

    @Test
    void aNewVersionThatDiffersOnlyInItsStatusStaysVerifiedAndAnyOtherChangeIsComparedAgain() {
        Deployment v1 = deployment("1", 1, null);
        put(v1);
        store.verified(store.get(NS + "/lake"), "sum");

        put(deployment("2", 1, new DeploymentStatusBuilder().withReadyReplicas(1).build()));
        HasMetadata ready = store.get(NS + "/lake");
        assertThat(CompactObject.verifies(ready, "sum")).as("only its status changed").isTrue();
        assertThat(store.wholeTree(ready)).as("nothing to compare").isNull();
        assertThat(((Deployment) ready).getStatus().getReadyReplicas()).as("the status is the new one").isEqualTo(1);

        put(deployment("3", 2, new DeploymentStatusBuilder().withReadyReplicas(1).build()));
        HasMetadata scaled = store.get(NS + "/lake");
        assertThat(CompactObject.verifies(scaled, "sum")).as("scaled by hand").isFalse();
        assertThat(store.wholeTree(scaled).path("spec").path("replicas").asInt()).isEqualTo(2);

        put(deployment("4", 2, null));
        assertThat(CompactObject.verifies(store.get(NS + "/lake"), "sum"))
                .as("after a version no pass verified, nothing is carried").isFalse();

        store.verified(store.get(NS + "/lake"), "scaled"); // a pass compared it with a desired state of 2 replicas
        Deployment annotated = deployment("5", 2, null);
        annotated.getMetadata().setAnnotations(Map.of("note", "added by hand"));
        put(annotated);
        assertThat(CompactObject.verifies(store.get(NS + "/lake"), "scaled")).as("an annotation is compared").isFalse();
    }

    private void put(HasMetadata o) {
        store.put(store.getKey(o), o);
    }

    private List<String> names(String namespace, String kind, String instance) {
        return store.ownedBy(namespace, kind, instance).stream().map(o -> o.getMetadata().getName()).toList();
    }

    private static ConfigMap configMap(String name, String namespace, String instance, String version) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .withResourceVersion(version).withLabels(labels(instance, "demo")).endMetadata()
                .withData(Map.of("k", "v")).build();
    }

    private static ConfigMap withData(ConfigMap config, String value) {
        config.setData(Map.of("k", value));
        return config;
    }

    private static Deployment deployment(String version, int replicas, DeploymentStatus status) {
        return new DeploymentBuilder().withNewMetadata().withName("lake").withNamespace(NS).withResourceVersion(version)
                .withGeneration((long) replicas).withLabels(labels("lake", "demo")).endMetadata()
                .withNewSpec().withReplicas(replicas).endSpec().withStatus(status).build();
    }

    private static Map<String, String> labels(String instance, String kind) {
        Map<String, String> labels = new HashMap<>();
        labels.put(Labels.MANAGED_BY, "test-service");
        labels.put(Labels.INSTANCE, instance);
        labels.put(Labels.INSTANCE_KIND, kind);
        return labels;
    }
}
