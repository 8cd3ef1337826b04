package io.lakehouse.engines.unit.nifi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.instances.ResourcesSpec;
import io.lakehouse.common.instances.SpecPatch;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.problem.FieldError;
import io.lakehouse.engines.kinds.nifi.NifiSpec;
import org.junit.jupiter.api.Test;

/** The nifi spec through the service's JSON reading and merge patches: capacity changes, the volume does not. */
class NifiPatchTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final NifiSpec CREATED = NifiFixtures.spec(new NifiSpec(null, null, null));

    @Test
    void aRequestSpecIsReadAndUnknownFieldsAreRefused() {
        InstanceSpec read = SpecPatch.read(NifiFixtures.KIND, json("{\"heap\":\"3Gi\",\"resources\":{\"memory\":\"5Gi\"}}"));

        assertThat(read).isEqualTo(new NifiSpec("3Gi", new ResourcesSpec("5Gi", null), null));
        assertThat(catchThrowableOfType(ApiException.class,
                () -> SpecPatch.read(NifiFixtures.KIND, json("{\"replicas\":2}"))).status()).isEqualTo(400);
    }

    @Test
    void heapAndMemoryCanGrowTogether() {
        InstanceSpec patched = SpecPatch.apply(NifiFixtures.KIND, CREATED,
                json("{\"spec\":{\"heap\":\"6Gi\",\"resources\":{\"memory\":\"8Gi\"}}}"));

        assertThat(patched).isEqualTo(new NifiSpec("6Gi", new ResourcesSpec("8Gi", "2"), "10Gi"));
    }

    @Test
    void theHeapAloneCannotEatTheHeadroom() {
        ApiException e = catchThrowableOfType(ApiException.class,
                () -> SpecPatch.apply(NifiFixtures.KIND, CREATED, json("{\"spec\":{\"heap\":\"4Gi\"}}")));

        assertThat(e.status()).isEqualTo(422);
        assertThat(e.errors()).extracting(FieldError::field).containsExactly("spec.resources.memory");
    }

    @Test
    void theVolumeSizeIsFixed() {
        ApiException e = catchThrowableOfType(ApiException.class,
                () -> SpecPatch.apply(NifiFixtures.KIND, CREATED, json("{\"spec\":{\"volumeSize\":\"20Gi\"}}")));

        assertThat(e.status()).isEqualTo(422);
        assertThat(e.errors()).extracting(FieldError::field).containsExactly("spec.volumeSize");
        assertThat(SpecPatch.apply(NifiFixtures.KIND, CREATED, json("{\"spec\":{\"volumeSize\":\"10Gi\"}}")))
                .as("repeating the current value is fine").isEqualTo(CREATED);
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
