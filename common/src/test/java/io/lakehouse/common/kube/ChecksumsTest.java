package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lakehouse.common.testing.ThreadAllocation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChecksumsTest {

    private static ConfigMap configMap(Map<String, String> labels, Map<String, String> data) {
        return new ConfigMapBuilder()
                .withNewMetadata().withName("c").withNamespace("ns").withLabels(labels).endMetadata()
                .withData(data)
                .build();
    }

    private static Map<String, String> ordered(String... keyValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    @Test
    void isAHexSha256() {
        assertThat(Checksums.of(configMap(Map.of(), Map.of("a", "1")))).matches("[0-9a-f]{64}");
    }

    @Test
    void isStableAcrossMapOrders() {
        ConfigMap one = configMap(ordered("x", "1", "y", "2"), ordered("a", "1", "b", "2", "c", "3"));
        ConfigMap other = configMap(ordered("y", "2", "x", "1"), ordered("c", "3", "a", "1", "b", "2"));
        assertThat(Checksums.of(one)).isEqualTo(Checksums.of(other));
    }

    @Test
    void changesWithTheDesiredState() {
        ConfigMap before = configMap(Map.of(), Map.of("a", "1"));
        ConfigMap after = configMap(Map.of(), Map.of("a", "2"));
        assertThat(Checksums.of(before)).isNotEqualTo(Checksums.of(after));
    }

    @Test
    void changesWithLabels() {
        assertThat(Checksums.of(configMap(Map.of("x", "1"), Map.of())))
                .isNotEqualTo(Checksums.of(configMap(Map.of("x", "2"), Map.of())));
    }

    @Test
    void ignoresItsOwnAnnotation() {
        ConfigMap plain = configMap(Map.of(), Map.of("a", "1"));
        plain.getMetadata().setAnnotations(new LinkedHashMap<>(Map.of("note", "x")));
        String expected = Checksums.of(plain);
        plain.getMetadata().getAnnotations().put(Labels.CHECKSUM, "anything");
        assertThat(Checksums.of(plain)).isEqualTo(expected);
    }

    @Test
    void otherAnnotationsCount() {
        ConfigMap annotated = configMap(Map.of(), Map.of("a", "1"));
        annotated.getMetadata().setAnnotations(Map.of("note", "x"));
        assertThat(Checksums.of(annotated)).isNotEqualTo(Checksums.of(configMap(Map.of(), Map.of("a", "1"))));
    }

    @Test
    void stampSetsTheAnnotationToTheChecksumOfTheObjectWithoutIt() {
        ConfigMap object = configMap(Map.of(), Map.of("a", "1"));
        String expected = Checksums.of(object);
        ConfigMap stamped = Checksums.stamp(object);
        assertThat(stamped).isSameAs(object);
        assertThat(stamped.getMetadata().getAnnotations()).containsEntry(Labels.CHECKSUM, expected);
    }

    /**
     * Fails today (bug in Checksums.of): removing the checksum annotation leaves an empty
     * {@code annotations: {}} in the tree, while an object that never had annotations has no such key,
     * so an object whose only annotation is the checksum does not hash to its own annotation, and
     * stamping it again changes the annotation.
     */
    @Test
    void aStampedObjectHashesToItsOwnAnnotationSoStampingIsIdempotent() {
        ConfigMap object = Checksums.stamp(configMap(Map.of(), Map.of("a", "1")));
        String first = object.getMetadata().getAnnotations().get(Labels.CHECKSUM);
        assertThat(Checksums.of(object)).as("checksum of the stamped object").isEqualTo(first);
        Checksums.stamp(object);
        assertThat(object.getMetadata().getAnnotations()).containsEntry(Labels.CHECKSUM, first);
    }

    @Test
    void stampKeepsOtherAnnotations() {
        ConfigMap object = configMap(Map.of(), Map.of("a", "1"));
        object.getMetadata().setAnnotations(new LinkedHashMap<>(Map.of("note", "x")));
        Checksums.stamp(object);
        assertThat(object.getMetadata().getAnnotations()).containsEntry("note", "x").containsKey(Labels.CHECKSUM);
    }

    @Test
    void stampingAnObjectWithOtherAnnotationsTwiceGivesTheSameAnnotation() {
        ConfigMap object = configMap(Map.of(), Map.of("a", "1"));
        object.getMetadata().setAnnotations(new LinkedHashMap<>(Map.of("note", "x")));
        String first = Checksums.stamp(object).getMetadata().getAnnotations().get(Labels.CHECKSUM);
        Checksums.stamp(object);
        assertThat(object.getMetadata().getAnnotations()).containsEntry(Labels.CHECKSUM, first);
    }

    /**
     * The canonical form written straight into the digest gives the bytes of the form it replaced (the tree converted
     * to maps, written with sorted entries): the checksums stamped on live objects before stay valid, and an upgrade
     * rewrites nothing.
     */
    @Test
    void isTheSha256OfTheSortedJsonOfTheObjectWithoutItsChecksum() throws Exception {
        Deployment server = ApplierSerializationsTest.server();
        server.getMetadata().setAnnotations(new LinkedHashMap<>(Map.of("zeta", "ü ∑ \"quoted\"\n", "alpha", "")));
        server.getSpec().setPaused(false);
        server.getSpec().getTemplate().getSpec().setTerminationGracePeriodSeconds(30L);
        ConfigMap config = configMap(ordered("y", "2", "x", "1"),
                ordered("c", "{\"k\": [1, 2.5, true, null]}", "a", ""));
        for (HasMetadata object : List.of(server, config, Checksums.stamp(configMap(Map.of(), Map.of("a", "1"))))) {
            assertThat(Checksums.of(object)).isEqualTo(mapsWrittenSorted(object));
        }
    }

    /** The maps and the string of the form it replaced took 85 KB per checksum of this Deployment; now 51 KB. */
    @Test
    void aChecksumOfAServerDeploymentAllocatesUnder64Kb() {
        Deployment server = ApplierSerializationsTest.server();
        assertThat(ThreadAllocation.perCall(200, () -> Checksums.of(server))).isLessThan(64 * 1024);
    }

    /** The form that was hashed before this test was written: tree → maps → JSON with sorted entries. */
    private static String mapsWrittenSorted(HasMetadata object) throws Exception {
        KubernetesSerialization serialization = new KubernetesSerialization();
        ObjectNode tree = serialization.convertValue(object, ObjectNode.class);
        if (tree.path("metadata").path("annotations") instanceof ObjectNode a) {
            a.remove(Labels.CHECKSUM);
            if (a.isEmpty()) {
                ((ObjectNode) tree.get("metadata")).remove("annotations");
            }
        }
        ObjectMapper sorted = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
        return Checksums.sha256(sorted.writeValueAsString(sorted.treeToValue(tree, Object.class)));
    }
}
