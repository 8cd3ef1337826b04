package io.lakehouse.engines.unit.nifi;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.instances.ResourcesSpec;
import io.lakehouse.common.problem.FieldError;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.engines.kinds.nifi.NifiKind;
import io.lakehouse.engines.kinds.nifi.NifiSpec;
import io.lakehouse.engines.unit.EngineFixtures;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Defaults and rules of the nifi template: what a 422 tells the user. */
class NifiRulesTest {

    private static final NifiKind KIND = NifiFixtures.KIND;

    @Test
    void omittedFieldsTakeTheTemplateDefaults() {
        assertThat(NifiFixtures.spec(new NifiSpec(null, null, null)))
                .isEqualTo(new NifiSpec("2Gi", new ResourcesSpec("4Gi", "2"), "10Gi"));
        assertThat(KIND.withDefaults(null, Optional.empty()))
                .isEqualTo(NifiFixtures.spec(new NifiSpec(null, null, null)));
        assertThat(errors("flows", new NifiSpec(null, null, null))).isEmpty();
    }

    @Test
    void anOmittedMemoryLeavesTwoGibibytesAboveTheHeap() {
        assertThat(NifiFixtures.spec(new NifiSpec("6Gi", null, null)).resources().memory()).isEqualTo("8Gi");
        assertThat(NifiFixtures.spec(new NifiSpec("1536Mi", new ResourcesSpec(null, "1"), null)).resources())
                .isEqualTo(new ResourcesSpec("3584Mi", "1"));
        assertThat(NifiFixtures.spec(new NifiSpec("lots", null, null)).resources().memory())
                .as("no sum of a wrong heap: its own violation speaks").isEqualTo(NifiSpec.DEFAULT_MEMORY);
    }

    @Test
    void givenFieldsAreKept() {
        NifiSpec given = new NifiSpec("6Gi", new ResourcesSpec("8Gi", "4"), "100Gi");
        assertThat(NifiFixtures.spec(given)).isEqualTo(given);
    }

    @Test
    void memoryOfExactlyHeapPlusOneGibibyteIsEnough() {
        assertThat(errors("flows", new NifiSpec("2Gi", new ResourcesSpec("3Gi", "2"), null))).isEmpty();
        assertThat(errors("flows", new NifiSpec("2048Mi", new ResourcesSpec("3072Mi", "2"), null))).isEmpty();
    }

    @Test
    void lessHeadroomIsRefusedOnTheMemoryFieldNamingTheRule() {
        List<FieldError> errors = errors("flows", new NifiSpec("2Gi", new ResourcesSpec("3071Mi", "2"), null));

        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("spec.resources.memory");
            assertThat(e.message()).contains("at least 3Gi").contains("about 1 Gi of headroom between the heap and"
                    + " the limit");
        });
    }

    @Test
    void aPatchThatRaisesTheHeapAloneIsRefused() {
        NifiSpec created = NifiFixtures.spec(new NifiSpec(null, null, null));
        Violations v = new Violations();

        KIND.checkCapacity(v, new NifiSpec("3584Mi", created.resources(), created.volumeSize()));

        assertThat(v.errors()).extracting(FieldError::field).containsExactly("spec.resources.memory");
    }

    @Test
    void wrongQuantitiesAreRefusedFieldByField() {
        List<FieldError> errors = errors("flows", new NifiSpec("lots", new ResourcesSpec("4GB", "-1"), "ten"));

        assertThat(errors).extracting(FieldError::field).containsExactlyInAnyOrder(
                "spec.heap", "spec.resources.memory", "spec.resources.cpu", "spec.volumeSize");
        assertThat(errors).allSatisfy(e -> assertThat(e.message()).contains("is not a Kubernetes quantity"));
    }

    @Test
    void quantitiesOutsideTheirRangeAreRefused() {
        List<FieldError> errors = errors("flows", new NifiSpec("512Mi", new ResourcesSpec("1Gi", "100m"), "100Mi"));

        assertThat(errors).extracting(FieldError::field).containsExactlyInAnyOrder(
                "spec.heap", "spec.resources.memory", "spec.resources.cpu", "spec.volumeSize");
        assertThat(errors).allSatisfy(e -> assertThat(e.message()).startsWith("must be at least"));
    }

    @Test
    void theNameKeepsThePodItsVolumeAndItsRevisionLabelWithinLimits() {
        String longest = "f".repeat(52);
        assertThat(errors(longest, new NifiSpec(null, null, null))).isEmpty();

        List<FieldError> errors = errors(longest + "f", new NifiSpec(null, null, null));

        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("name");
            assertThat(e.message()).contains("'" + longest + "f-0'").contains("'data-" + longest + "f-0'")
                    .contains("at most 52");
        });
    }

    @Test
    void anInvalidNameIsRefusedOnce() {
        assertThat(errors("Flows", new NifiSpec(null, null, null))).extracting(FieldError::field)
                .containsExactly("name");
        assertThat(errors("f".repeat(60), new NifiSpec(null, null, null))).extracting(FieldError::field)
                .containsExactly("name");
    }

    @Test
    void onlyTheVolumeSizeIsFixedAndCapacityChecksIgnoreIt() {
        assertThat(KIND.fixedFields()).containsExactly("volumeSize");
        Violations v = new Violations();
        KIND.checkCapacity(v, new NifiSpec("2Gi", new ResourcesSpec("4Gi", "2"), "not checked on a patch"));
        assertThat(v.errors()).isEmpty();
    }

    private static List<FieldError> errors(String name, NifiSpec requested) {
        Violations v = new Violations();
        KIND.checkCreate(v, name, EngineFixtures.NAMESPACE, NifiFixtures.spec(requested));
        return v.errors();
    }
}
