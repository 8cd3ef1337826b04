package io.lakehouse.notebooks.unit.jupyterhub;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.problem.FieldError;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.notebooks.kinds.jupyterhub.JupyterHubKind;
import io.lakehouse.notebooks.kinds.jupyterhub.JupyterHubRules;
import io.lakehouse.notebooks.kinds.jupyterhub.JupyterHubSpec;
import io.lakehouse.notebooks.kinds.jupyterhub.LakehouseRefs;
import io.lakehouse.notebooks.kinds.jupyterhub.PerUserSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Bad requests, one per row, with the field errors a user sees. */
class JupyterHubRulesTest {

    @Test
    void badRequestsNameTheirFields() {
        Map<String, JupyterHubSpec> requests = new LinkedHashMap<>();
        requests.put("image with a tag", spec("ds/jupyter:1.0", "1", null, null, null));
        requests.put("image with upper case path", spec("DS/Jupyter", "1", null, null, null));
        requests.put("bad version", spec(null, "-latest", null, null, null));
        requests.put("too little memory", spec(null, null, new PerUserSpec(null, "128Mi", null), null, null));
        requests.put("too much cpu", spec(null, null, new PerUserSpec("64", null, null), null, null));
        requests.put("tiny volume", spec(null, null, new PerUserSpec(null, null, "100Mi"), null, null));
        requests.put("not a quantity", spec(null, null, new PerUserSpec("lots", null, null), null, null));
        requests.put("reference to another namespace", spec(null, null, null,
                new LakehouseRefs("other/lakehouse-cat", null, null, null), null));
        requests.put("bucket without keys", spec(null, null, null, null,
                new StorageSpec("warehouse", "http://minio:9000", "us-east-1", null, null, null, null)));

        Map<String, List<String>> errors = new LinkedHashMap<>();
        requests.forEach((name, spec) -> {
            Violations v = new Violations();
            JupyterHubKind.checkCreate(v, "notebooks", "team-a", JupyterHubKind.withDefaults(spec, HubFixtures.DEFAULTS));
            errors.put(name, v.errors().stream().map(FieldError::field).toList());
        });
        assertThat(errors).isEqualTo(Map.of(
                "image with a tag", List.of("spec.image"),
                "image with upper case path", List.of("spec.image"),
                "bad version", List.of("spec.version"),
                "too little memory", List.of("spec.perUser.memory"),
                "too much cpu", List.of("spec.perUser.cpu"),
                "tiny volume", List.of("spec.perUser.storage"),
                "not a quantity", List.of("spec.perUser.cpu"),
                "reference to another namespace", List.of("spec.lakehouse.catalog"),
                "bucket without keys", List.of("spec.storage")));
    }

    @Test
    void goodImagesPass() {
        for (String image : List.of("ds/jupyter-datastack", "registry.example.org:5000/team/notebook",
                "quay.io/jupyter/pyspark-notebook", "jupyter")) {
            Violations v = new Violations();
            JupyterHubKind.checkCreate(v, "notebooks", "team-a",
                    JupyterHubKind.withDefaults(spec(image, "2026.12", null, null, null), HubFixtures.DEFAULTS));
            assertThat(v.errors()).as(image).isEmpty();
        }
    }

    @Test
    void aNameTooLongForItsDerivedNamesIsRefused() {
        Violations v = new Violations();
        JupyterHubKind.checkCreate(v, "n".repeat(55), "team-a", HubFixtures.defaults().spec());
        assertThat(v.errors()).extracting(FieldError::field).containsExactly("name");
    }

    @Test
    void referencesMustNameKnownInstancesThatAreNotBeingDeleted() {
        LakehouseRefs refs = new LakehouseRefs("cat", "trino", "gone", "old");
        Violations v = new Violations();
        JupyterHubRules.checkReferences(v, refs, ref -> switch (ref.name()) {
            case "cat" -> Optional.of(new JupyterHubRules.Known("Ready", false));
            case "trino" -> Optional.of(new JupyterHubRules.Known("Deploying", false));
            case "old" -> Optional.of(new JupyterHubRules.Known("Deleting", true));
            default -> Optional.empty();
        });
        assertThat(v.errors()).extracting(e -> e.field() + ": " + e.message()).containsExactly(
                "spec.lakehouse.sparkConnect: no spark-connect instance 'gone' in this namespace",
                "spec.lakehouse.mlflow: the mlflow instance 'old' is being deleted");
    }

    private static JupyterHubSpec spec(String image, String version, PerUserSpec perUser, LakehouseRefs refs,
            StorageSpec storage) {
        return new JupyterHubSpec(image, version, perUser, refs, storage);
    }
}
