package io.lakehouse.engines.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakehouse.common.instances.SpecPatch;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.problem.FieldError;
import io.lakehouse.engines.kinds.trino.TrinoKind;
import io.lakehouse.engines.kinds.trino.TrinoSpec;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SpecPatchTest {

    private static final TrinoKind KIND = new TrinoKind();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TrinoSpec CURRENT = KIND.withDefaults(
            new TrinoSpec("lakehouse-cat", null, null, 3, "6Gi", null, null), Optional.of(EngineFixtures.catalog()));

    private static TrinoSpec patch(String json) throws Exception {
        return (TrinoSpec) SpecPatch.apply(KIND, CURRENT, JSON.readTree(json));
    }

    private static ApiException refused(String json) throws Exception {
        JsonNode patch = JSON.readTree(json);
        return (ApiException) catchThrowable(() -> SpecPatch.apply(KIND, CURRENT, patch));
    }

    @Test
    void capacityFieldsChangeAndNullResetsToTheDefault() throws Exception {
        TrinoSpec next = patch("{\"spec\":{\"workers\":5,\"coordinatorMemory\":null}}");
        assertThat(next.workers()).isEqualTo(5);
        assertThat(next.coordinatorMemory()).isEqualTo("4Gi");
        assertThat(next.catalog()).isEqualTo("lakehouse-cat");
    }

    @Test
    void fixedFieldsMayOnlyRepeatTheirValue() throws Exception {
        assertThat(patch("{\"spec\":{\"catalog\":\"lakehouse-cat\",\"storage\":{\"bucket\":\"warehouse\"}}}"))
                .isEqualTo(CURRENT);
        ApiException e = refused("{\"spec\":{\"catalog\":\"other\",\"storage\":{\"bucket\":\"b2\"},\"workers\":0}}");
        assertThat(e.status()).isEqualTo(422);
        assertThat(e.errors()).extracting(FieldError::field)
                .containsExactlyInAnyOrder("spec.catalog", "spec.storage", "spec.workers");
        assertThat(refused("{\"name\":\"x\"}").status()).isEqualTo(422);
    }

    @Test
    void unknownFieldsAndWrongTypesAreBadRequests() {
        assertThatThrownBy(() -> patch("{\"spec\":{\"replicas\":2}}")).isInstanceOf(ApiException.class)
                .hasMessageContaining("spec.replicas").satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(400));
        assertThatThrownBy(() -> patch("{\"spec\":{\"workers\":\"many\"}}")).isInstanceOf(ApiException.class)
                .hasMessageContaining("spec.workers");
        assertThatThrownBy(() -> patch("{\"metadata\":{}}")).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> patch("[1]")).isInstanceOf(ApiException.class);
    }
}
