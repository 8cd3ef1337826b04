package io.lakehouse.engines.unit.mlflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.templates.Template;
import io.lakehouse.common.templates.TemplateField;
import org.junit.jupiter.api.Test;

/** The form the console renders for the mlflow template. */
class MlflowTemplateTest {

    private static final Template TEMPLATE = MlflowFixtures.KIND.template();

    @Test
    void theTemplateIsInTheDataScienceCategory() {
        assertThat(TEMPLATE.kind()).isEqualTo("mlflow");
        assertThat(TEMPLATE.category()).isEqualTo("Data science");
    }

    @Test
    void everyFieldIsThereWithItsDefault() {
        assertThat(TEMPLATE.fields()).extracting(TemplateField::path).contains("name", "spec.storage.bucket",
                "spec.storage.credentialsSecret", "spec.artifactsPrefix", "spec.workers", "spec.resources.memory",
                "spec.resources.cpu", "spec.database.storageSize");
        assertThat(field("spec.storage.bucket").required()).isTrue();
        assertThat(field("spec.artifactsPrefix").defaultValue()).isEqualTo("mlflow");
        assertThat(field("spec.workers").defaultValue()).isEqualTo(2);
        assertThat(field("spec.workers").max()).isEqualTo("16");
        assertThat(field("spec.resources.memory").defaultValue()).isEqualTo("2Gi");
        assertThat(field("spec.resources.cpu").defaultValue()).isEqualTo("1");
        assertThat(field("spec.database.storageSize").defaultValue()).isEqualTo("1Gi");
        assertThat(field("spec.storage.secretAccessKey").secret()).isTrue();
    }

    @Test
    void theFixedFieldsAreMarkedFixedAndOnlyThey() {
        assertThat(TEMPLATE.fields()).filteredOn(f -> f.path().startsWith("spec.") && f.fixedAtCreation())
                .extracting(f -> f.path().split("\\.")[1]).containsOnly("storage", "artifactsPrefix");
    }

    private static TemplateField field(String path) {
        return TEMPLATE.fields().stream().filter(f -> f.path().equals(path)).findFirst().orElseThrow();
    }
}
