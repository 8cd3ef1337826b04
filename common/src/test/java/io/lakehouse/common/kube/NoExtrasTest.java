package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The empty maps and lists of a compact copy become the shared immutable ones, where the field can hold them. */
class NoExtrasTest {

    @Test
    void emptyCollectionsBecomeTheSharedOnesAndFieldsOfAConcreteTypeKeepTheirs() {
        Model inner = new Model();
        Model outer = new Model();
        outer.children.add(inner);
        outer.filled.put("k", "v");
        outer.additionalProperties.put("k", "v");

        NoExtras.strip(outer);

        assertThat(outer.extras).isSameAs(Map.of());
        assertThat(outer.additionalProperties).isEqualTo(Map.of("k", "v")).isNotInstanceOf(LinkedHashMap.class);
        assertThat(outer.filled).containsEntry("k", "v").isInstanceOf(LinkedHashMap.class);
        assertThat(outer.ordered).isEmpty();
        assertThat(outer.ordered).isInstanceOf(LinkedHashMap.class);
        assertThat(outer.concreteList).isInstanceOf(ArrayList.class);
        assertThat(inner.extras).isSameAs(Map.of());
        assertThat(inner.children).isSameAs(List.of());
    }

    @Test
    void theExtrasOfAGenericResourceBecomeImmutableAllTheWayDownWithoutNulls() {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", "Ready");
        condition.put("message", null);
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("phase", "Cluster in healthy state");
        status.put("readyInstances", 1);
        status.put("conditions", new ArrayList<>(List.of(condition)));
        GenericKubernetesResource cluster = new GenericKubernetesResource();
        cluster.setAdditionalProperty("status", status);

        NoExtras.strip(cluster);

        Map<String, Object> kept = cluster.getAdditionalProperties();
        assertThat(kept).isEqualTo(Map.of("status", Map.of("phase", "Cluster in healthy state", "readyInstances", 1,
                "conditions", List.of(Map.of("type", "Ready")))));
        assertThat(kept.getClass().getName()).startsWith("java.util.ImmutableCollections");
        assertThat(((Map<?, ?>) kept.get("status")).get("conditions").getClass().getName())
                .startsWith("java.util.ImmutableCollections");
    }

    /** A model class with the field types fabric8's generated classes use, and concrete ones. */
    @SuppressWarnings("unused")
    static final class Model implements KubernetesResource {
        private Map<String, Object> extras = new LinkedHashMap<>();
        private Map<String, Object> additionalProperties = new LinkedHashMap<>();
        private Map<String, String> filled = new LinkedHashMap<>();
        private LinkedHashMap<String, String> ordered = new LinkedHashMap<>();
        private ArrayList<String> concreteList = new ArrayList<>();
        private List<Model> children = new ArrayList<>();
    }
}
