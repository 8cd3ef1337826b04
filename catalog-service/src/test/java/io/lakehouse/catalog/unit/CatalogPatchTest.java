package io.lakehouse.catalog.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakehouse.catalog.domain.CatalogKind;
import io.lakehouse.catalog.domain.CatalogPatch;
import io.lakehouse.catalog.domain.CatalogSpec;
import io.lakehouse.catalog.domain.DatabaseSpec;
import io.lakehouse.catalog.domain.ResourcesSpec;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.problem.FieldError;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** JSON merge patches on a stored instance: capacity may change, the rest is fixed at creation. */
class CatalogPatchTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** As stored: defaults applied, inline keys replaced by the instance's Secret. */
    private static final CatalogSpec CURRENT = CatalogKind.spec(Fixtures.withInlineKeys())
            .withCapacity(new ResourcesSpec("2Gi", "2"), new DatabaseSpec("5Gi"));

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    private static CatalogSpec apply(String patch) {
        return CatalogPatch.apply(CURRENT, json(patch));
    }

    private static ApiException refused(String patch) {
        ApiException e = catchThrowableOfType(ApiException.class, () -> apply(patch));
        assertThat(e).as("refused: %s", patch).isNotNull();
        return e;
    }

    private static List<String> fields(ApiException e) {
        return e.errors().stream().map(FieldError::field).toList();
    }

    @Test
    void anEmptyPatchChangesNothing() {
        assertThat(apply("{}")).isEqualTo(CURRENT);
        assertThat(apply("{'spec': {}}")).isEqualTo(CURRENT);
    }

    @Test
    void memoryAndCpuCanChange() {
        CatalogSpec next = apply("{'spec': {'resources': {'memory': '4Gi', 'cpu': '500m'}}}");
        assertThat(next.resources()).isEqualTo(new ResourcesSpec("4Gi", "500m"));
        assertThat(next.database()).isEqualTo(CURRENT.database());
        assertThat(next.storage()).isEqualTo(CURRENT.storage());
    }

    @Test
    void anAbsentFieldKeepsItsValue() {
        assertThat(apply("{'spec': {'resources': {'cpu': '3'}}}").resources()).isEqualTo(new ResourcesSpec("2Gi", "3"));
    }

    @Test
    void aNumberIsTakenAsAQuantity() {
        assertThat(apply("{'spec': {'resources': {'cpu': 4}}}").resources().cpu()).isEqualTo("4");
    }

    @Test
    void nullResetsAFieldToTheTemplateDefault() {
        assertThat(apply("{'spec': {'resources': {'memory': null}}}").resources())
                .isEqualTo(new ResourcesSpec(CatalogSpec.DEFAULT_MEMORY, "2"));
    }

    @Test
    void nullResetsAWholeGroupToTheTemplateDefaults() {
        assertThat(apply("{'spec': {'resources': null}}").resources())
                .isEqualTo(new ResourcesSpec(CatalogSpec.DEFAULT_MEMORY, CatalogSpec.DEFAULT_CPU));
    }

    @Test
    void storageCanGrow() {
        assertThat(apply("{'spec': {'database': {'storageSize': '10Gi'}}}").database()).isEqualTo(new DatabaseSpec("10Gi"));
    }

    @Test
    void storageCannotShrink() {
        ApiException e = refused("{'spec': {'database': {'storageSize': '2Gi'}}}");
        assertThat(e.status()).isEqualTo(422);
        assertThat(e.errors()).singleElement().satisfies(err -> {
            assertThat(err.field()).isEqualTo("spec.database.storageSize");
            assertThat(err.message()).contains("cannot shrink from 5Gi to 2Gi");
        });
    }

    @Test
    void resettingStorageToTheSmallerDefaultIsAShrinkToo() {
        assertThat(fields(refused("{'spec': {'database': {'storageSize': null}}}")))
                .containsExactly("spec.database.storageSize");
    }

    @Test
    void capacityBelowTheMinimumsIsRefusedWithEveryField() {
        ApiException e = refused("{'spec': {'resources': {'memory': '256Mi', 'cpu': '50m'}}}");
        assertThat(e.status()).isEqualTo(422);
        assertThat(fields(e)).containsExactly("spec.resources.memory", "spec.resources.cpu");
    }

    @Test
    void storageBelowTheMinimumIsRefusedOnceNotAlsoAsAShrink() {
        ApiException e = refused("{'spec': {'database': {'storageSize': '512Mi'}}}");
        assertThat(e.errors()).containsExactly(new FieldError("spec.database.storageSize", "must be at least 1Gi"));
    }

    @Test
    void aMalformedQuantityIsRefused() {
        assertThat(fields(refused("{'spec': {'resources': {'memory': 'lots'}}}"))).containsExactly("spec.resources.memory");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{'spec': {'catalogName': 'other'}}",
        "{'spec': {'realm': 'OTHER'}}",
        "{'spec': {'storage': {'bucket': 'other-bucket'}}}",
        "{'spec': {'storage': {'endpoint': 'https://other.example.org'}}}",
        "{'spec': {'storage': {'pathStyleAccess': false}}}",
        "{'spec': {'storage': null}}",
    })
    void aFixedFieldWithAnotherValueIsRefused(String patch) {
        ApiException e = refused(patch);
        assertThat(e.status()).isEqualTo(422);
        assertThat(e.errors()).singleElement().satisfies(err -> {
            assertThat(err.field()).startsWith("spec.");
            assertThat(err.message()).contains("fixed at creation");
        });
    }

    @Test
    void theFieldNameOfAFixedFieldIsReported() {
        assertThat(fields(refused("{'spec': {'catalogName': 'other', 'realm': 'OTHER'}}")))
                .containsExactlyInAnyOrder("spec.catalogName", "spec.realm");
        assertThat(fields(refused("{'spec': {'storage': {'bucket': 'other-bucket'}}}"))).containsExactly("spec.storage");
    }

    @Test
    void fixedFieldsSentBackWithTheirValueAreAccepted() {
        CatalogSpec next = apply("{'spec': {'catalogName': 'lakehouse', 'realm': 'POLARIS', "
                + "'storage': {'bucket': 'lake-bucket', 'endpoint': 'http://minio.storage.svc:9000', "
                + "'region': 'eu-west-3', 'pathStyleAccess': true, 'credentialsSecret': 'warehouse-s3'}, "
                + "'resources': {'memory': '3Gi'}}}");
        assertThat(next.resources().memory()).isEqualTo("3Gi");
    }

    @Test
    void theWholeViewOfTheSpecSentBackIsAccepted() {
        assertThat(CatalogPatch.apply(CURRENT, JSON.createObjectNode().set("spec", JSON.valueToTree(CURRENT))))
                .isEqualTo(CURRENT);
    }

    @Test
    void sendingBackTheWriteOnlyKeysIsRefusedAsAChangeOfStorage() {
        assertThat(fields(refused("{'spec': {'storage': {'accessKeyId': '" + Fixtures.ACCESS_KEY_ID + "'}}}")))
                .containsExactly("spec.storage");
    }

    @ParameterizedTest
    @ValueSource(strings = {"name", "namespace", "kind"})
    void topLevelIdentityFieldsAreFixed(String field) {
        ApiException e = refused("{'" + field + "': 'x'}");
        assertThat(e.status()).isEqualTo(422);
        assertThat(fields(e)).containsExactly(field);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{'status': {}}",
        "{'spec': {'replicas': 2}}",
        "{'spec': {'resources': {'gpu': '1'}}}",
        "{'spec': {'database': {'instances': 2}}}",
    })
    void anUnknownFieldIsAMalformedRequest(String patch) {
        ApiException e = refused(patch);
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.getMessage()).contains("unknown field");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[]", "'text'", "null", "{'spec': []}", "{'spec': 'x'}", "{'spec': {'resources': 'x'}}",
            "{'spec': {'database': 5}}", "{'spec': {'resources': {'memory': {'value': 1}}}}"})
    void aPatchOfTheWrongShapeIsAMalformedRequest(String patch) {
        assertThat(refused(patch).status()).isEqualTo(400);
    }

    @Test
    void aMissingPatchIsAMalformedRequest() {
        ApiException e = catchThrowableOfType(ApiException.class, () -> CatalogPatch.apply(CURRENT, null));
        assertThat(e.status()).isEqualTo(400);
    }
}
