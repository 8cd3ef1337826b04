package io.lakehouse.common.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class OpenApiSchemasTest {

    private static final OpenApiSchemas PETS = load();

    private static OpenApiSchemas load() {
        try {
            return OpenApiSchemas.load(Path.of(OpenApiSchemasTest.class.getResource("/testing/pets-openapi.yml").toURI()));
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aValidBodyOfEachSubtypeHasNoProblem() {
        assertThat(PETS.validate("AddPetRequest", "{\"pet\": {\"kind\": \"cat\", \"name\": \"Tom\", \"lives\": 9}}"))
                .isEmpty();
        assertThat(PETS.validate("AddPetRequest", "{\"pet\": {\"kind\": \"dog\", \"name\": \"Rex\", \"trick\": \"sit\"}}"))
                .isEmpty();
    }

    @Test
    void theSubtypeNamedByTheDiscriminatorIsValidated() {
        assertThat(PETS.validate("AddPetRequest", "{\"pet\": {\"kind\": \"dog\", \"name\": \"Rex\", \"trick\": \"fly\"}}"))
                .anySatisfy(m -> assertThat(m).contains("$.pet.trick"));
        assertThat(PETS.validate("AddPetRequest", "{\"pet\": {\"kind\": \"cat\", \"name\": \"Tom\"}}"))
                .anySatisfy(m -> assertThat(m).contains("lives"));
    }

    @Test
    void theBaseSchemaIsStillValidated() {
        assertThat(PETS.validate("AddPetRequest", "{\"pet\": {\"kind\": \"cat\", \"lives\": 1}}"))
                .anySatisfy(m -> assertThat(m).contains("name"));
        assertThat(PETS.validate("AddPetRequest", "{\"pet\": {\"name\": \"x\", \"lives\": 1}}"))
                .anySatisfy(m -> assertThat(m).contains("kind"));
        assertThat(PETS.validate("AddPetRequest", "{\"pet\": {\"kind\": \"cow\", \"name\": \"x\"}}"))
                .anySatisfy(m -> assertThat(m).contains("$.pet.kind"));
    }

    @Test
    void subtypesValidateOnTheirOwnWithoutCycling() {
        assertThat(PETS.validate("Cat", "{\"kind\": \"cat\", \"name\": \"Tom\", \"lives\": 3}")).isEmpty();
        assertThat(PETS.validate("Cat", "{\"kind\": \"cat\", \"name\": \"Tom\", \"lives\": 10}"))
                .anySatisfy(m -> assertThat(m).contains("$.lives"));
    }

    @Test
    void nullableAllowsNull() {
        assertThat(PETS.validate("Dog", "{\"kind\": \"dog\", \"name\": \"Rex\", \"nickname\": null}")).isEmpty();
    }

    @Test
    void declaredPropertiesFollowAllOfAndReferences() {
        assertThat(PETS.declaredProperties("Cat")).containsExactlyInAnyOrder("kind", "name", "nickname", "lives");
        assertThat(PETS.declaredProperties("AddPetRequest")).containsExactly("pet");
    }

    @Test
    void anUnknownSchemaNameIsRefused() {
        assertThatThrownBy(() -> PETS.validate("Nope", "{}")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void assertValidListsTheProblems() {
        assertThatThrownBy(() -> PETS.assertValid("AddPetRequest", "{}"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("pet");
    }
}
