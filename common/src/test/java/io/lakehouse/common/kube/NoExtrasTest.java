package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;

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

        NoExtras.strip(outer);

        assertThat(outer.extras).isSameAs(Map.of());
        assertThat(outer.filled).containsEntry("k", "v").isInstanceOf(LinkedHashMap.class);
        assertThat(outer.ordered).isEmpty();
        assertThat(outer.ordered).isInstanceOf(LinkedHashMap.class);
        assertThat(outer.concreteList).isInstanceOf(ArrayList.class);
        assertThat(inner.extras).isSameAs(Map.of());
        assertThat(inner.children).isSameAs(List.of());
    }

    /** A model class with the field types fabric8's generated classes use, and concrete ones. */
    @SuppressWarnings("unused")
    static final class Model implements KubernetesResource {
        private Map<String, Object> extras = new LinkedHashMap<>();
        private Map<String, String> filled = new LinkedHashMap<>();
        private LinkedHashMap<String, String> ordered = new LinkedHashMap<>();
        private ArrayList<String> concreteList = new ArrayList<>();
        private List<Model> children = new ArrayList<>();
    }
}
