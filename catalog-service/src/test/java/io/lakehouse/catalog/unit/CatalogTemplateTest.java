package io.lakehouse.catalog.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakehouse.catalog.domain.CatalogKind;
import io.lakehouse.catalog.domain.CatalogPatch;
import io.lakehouse.catalog.domain.CatalogRules;
import io.lakehouse.catalog.domain.CatalogSpec;
import io.lakehouse.catalog.domain.CatalogTemplate;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.problem.FieldError;
import io.lakehouse.common.templates.TemplateField;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The template a form renders says the same as the rules that check the requests. */
class CatalogTemplateTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<TemplateField> FIELDS = CatalogTemplate.TEMPLATE.fields();

    private static JsonNode at(JsonNode root, String path) {
        JsonNode node = root;
        for (String part : path.split("\\.")) {
            node = node.path(part);
        }
        return node;
    }

    private static ObjectNode set(ObjectNode root, String path, JsonNode value) {
        String[] parts = path.split("\\.");
        ObjectNode node = root;
        for (int i = 0; i < parts.length - 1; i++) {
            node = node.has(parts[i]) ? (ObjectNode) node.get(parts[i]) : node.putObject(parts[i]);
        }
        node.set(parts[parts.length - 1], value);
        return root;
    }

    /** A create request (name and spec) with a namespace bucket's Secret, as JSON. */
    private static ObjectNode request() {
        ObjectNode request = JSON.createObjectNode().put("name", "warehouse");
        request.set("spec", JSON.valueToTree(Fixtures.requestWithSecret()));
        return request;
    }

    private static ApiException createFails(ObjectNode request) {
        return catchThrowableOfType(ApiException.class, () -> CatalogRules.checkCreate(
                request.path("name").isTextual() ? request.get("name").asText() : null, Fixtures.NAMESPACE,
                JSON.treeToValue(request.get("spec"), CatalogSpec.class)));
    }

    private static void createSucceeds(ObjectNode request) throws Exception {
        CatalogRules.checkCreate(request.get("name").asText(), Fixtures.NAMESPACE,
                JSON.treeToValue(request.get("spec"), CatalogSpec.class));
    }

    @Test
    void theKindIsIcebergCatalog() {
        assertThat(CatalogTemplate.TEMPLATE.kind()).isEqualTo("iceberg-catalog");
        assertThat(FIELDS).extracting(TemplateField::path).doesNotHaveDuplicates();
    }

    @Test
    void theTemplateDefaultsAreTheOnesApplied() {
        JsonNode applied = JSON.createObjectNode().set("spec", JSON.valueToTree(
                CatalogRules.checkCreate("warehouse", Fixtures.NAMESPACE, Fixtures.requestWithSecret())));
        for (TemplateField field : FIELDS) {
            if (field.defaultValue() != null) {
                assertThat(at(applied, field.path()).asText()).as(field.path())
                        .isEqualTo(String.valueOf(field.defaultValue()));
            }
        }
    }

    @Test
    void theTemplateRangesAreTheOnesChecked() throws Exception {
        for (TemplateField field : FIELDS) {
            if (field.min() == null) {
                continue;
            }
            createSucceeds(set(request(), field.path(), JSON.getNodeFactory().textNode(field.min())));
            createSucceeds(set(request(), field.path(), JSON.getNodeFactory().textNode(field.max())));
            ApiException below = createFails(set(request(), field.path(), JSON.getNodeFactory().textNode("1m")));
            assertThat(below).as(field.path()).isNotNull();
            assertThat(below.errors()).extracting(FieldError::field).as(field.path()).containsExactly(field.path());
        }
    }

    @Test
    void everyMandatoryFieldIsRequiredOnItsPath() {
        for (TemplateField field : FIELDS) {
            if (!field.required()) {
                continue;
            }
            ObjectNode request = request();
            String parent = field.path().contains(".") ? field.path().substring(0, field.path().lastIndexOf('.')) : "";
            String leaf = field.path().substring(field.path().lastIndexOf('.') + 1);
            ((ObjectNode) (parent.isEmpty() ? request : at(request, parent))).remove(leaf);
            ApiException e = createFails(request);
            assertThat(e).as(field.path()).isNotNull();
            assertThat(e.errors()).extracting(FieldError::field).as(field.path()).contains(field.path());
        }
    }

    @Test
    void fieldsFixedAfterCreationCannotBePatchedAndTheOthersCan() {
        CatalogSpec current = CatalogKind.spec(Fixtures.withInlineKeys());
        for (TemplateField field : FIELDS) {
            ObjectNode patch = JSON.createObjectNode();
            JsonNode value = switch (field.type()) {
                case "boolean" -> JSON.getNodeFactory().booleanNode(false);
                case "quantity" -> JSON.getNodeFactory().textNode(field.max());
                case "url" -> JSON.getNodeFactory().textNode("https://other.example.org");
                default -> JSON.getNodeFactory().textNode("other-value");
            };
            set(patch, field.path(), value);
            ApiException e = catchThrowableOfType(ApiException.class, () -> CatalogPatch.apply(current, patch));
            if (field.fixedAtCreation()) {
                assertThat(e).as(field.path()).isNotNull();
                assertThat(e.status()).as(field.path()).isEqualTo(422);
            } else {
                assertThat(e).as(field.path()).isNull();
            }
        }
    }

    @Test
    void writeOnlyFieldsAreNotInTheStoredSpec() {
        JsonNode stored = JSON.createObjectNode().set("spec", JSON.valueToTree(CatalogKind.spec(Fixtures.withInlineKeys())));
        List<TemplateField> writeOnly = FIELDS.stream().filter(TemplateField::secret).toList();
        assertThat(writeOnly).extracting(TemplateField::path)
                .containsExactlyInAnyOrder("spec.storage.accessKeyId", "spec.storage.secretAccessKey");
        writeOnly.forEach(f -> assertThat(at(stored, f.path()).isMissingNode()).as(f.path()).isTrue());
    }
}
