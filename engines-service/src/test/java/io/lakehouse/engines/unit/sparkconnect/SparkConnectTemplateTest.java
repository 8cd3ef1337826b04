package io.lakehouse.engines.unit.sparkconnect;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.templates.Template;
import io.lakehouse.common.templates.TemplateField;
import org.junit.jupiter.api.Test;

/** The form the console renders for the spark-connect template. */
class SparkConnectTemplateTest {

    private static final Template TEMPLATE = SparkConnectFixtures.KIND.template();

    @Test
    void theTemplateIsInTheProcessingCategory() {
        assertThat(TEMPLATE.kind()).isEqualTo("spark-connect");
        assertThat(TEMPLATE.category()).isEqualTo("Processing");
    }

    @Test
    void everyFieldIsThereWithItsDefault() {
        assertThat(TEMPLATE.fields()).extracting(TemplateField::path).contains("name", "spec.catalog", "spec.warehouse",
                "spec.requireToken", "spec.storage.bucket", "spec.storage.credentialsSecret", "spec.cores",
                "spec.driverMemory", "spec.podMemory");
        assertThat(field("spec.catalog").required()).isTrue();
        assertThat(field("spec.catalog").fixedAtCreation()).isTrue();
        assertThat(field("spec.warehouse").defaultValue()).isEqualTo("lakehouse");
        assertThat(field("spec.requireToken").defaultValue()).isEqualTo(true);
        assertThat(field("spec.requireToken").fixedAtCreation()).isFalse();
        assertThat(field("spec.cores").defaultValue()).isEqualTo(2);
        assertThat(field("spec.cores").min()).isEqualTo("1");
        assertThat(field("spec.cores").max()).isEqualTo("32");
        assertThat(field("spec.driverMemory").defaultValue()).isEqualTo("2Gi");
        assertThat(field("spec.podMemory").defaultValue()).isEqualTo("3Gi");
        assertThat(field("spec.storage.secretAccessKey").secret()).isTrue();
    }

    @Test
    void theFixedFieldsAreMarkedFixedAndOnlyThey() {
        assertThat(TEMPLATE.fields()).filteredOn(f -> f.path().startsWith("spec.") && f.fixedAtCreation())
                .extracting(f -> f.path().split("\\.")[1]).containsOnly("catalog", "warehouse", "storage");
    }

    private static TemplateField field(String path) {
        return TEMPLATE.fields().stream().filter(f -> f.path().equals(path)).findFirst().orElseThrow();
    }
}
