package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An instance's objects are found through the store's index by instance (P6: what a teardown pass reads does
 * not grow with the number of other instances), and the index follows every change of the store.
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

        store.compact(store.get(NS + "/lake-config"), "");
        assertThat(CompactObject.isCompact(store.get(NS + "/lake-config"))).isTrue();
        assertThat(names(NS, "demo", "lake")).as("a compact copy keeps its labels").containsExactly("lake-config");

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

    private void put(HasMetadata o) {
        store.put(store.getKey(o), o);
    }

    private java.util.List<String> names(String namespace, String kind, String instance) {
        return store.ownedBy(namespace, kind, instance).stream().map(o -> o.getMetadata().getName()).toList();
    }

    private static ConfigMap configMap(String name, String namespace, String instance, String version) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .withResourceVersion(version).withLabels(labels(instance, "demo")).endMetadata()
                .withData(Map.of("k", "v")).build();
    }

    private static Map<String, String> labels(String instance, String kind) {
        Map<String, String> labels = new HashMap<>();
        labels.put(Labels.MANAGED_BY, "test-service");
        labels.put(Labels.INSTANCE, instance);
        labels.put(Labels.INSTANCE_KIND, kind);
        return labels;
    }
}
