package io.lakehouse.engines.unit.trino;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.problem.FieldError;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.common.validation.Warehouses;
import io.lakehouse.engines.kinds.trino.TrinoKind;
import io.lakehouse.engines.kinds.trino.TrinoSpec;
import io.lakehouse.engines.unit.EngineFixtures;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TrinoRulesTest {

    private static final TrinoKind KIND = new TrinoKind();

    private static TrinoSpec spec(Integer workers, String coordinatorMemory, String workerMemory) {
        return KIND.withDefaults(new TrinoSpec("lakehouse-cat", null, null, workers, coordinatorMemory, workerMemory,
                null), Optional.of(EngineFixtures.catalog()));
    }

    private static List<FieldError> errors(String name, TrinoSpec spec) {
        Violations v = new Violations();
        KIND.checkCreate(v, name, EngineFixtures.NAMESPACE, spec);
        return v.errors();
    }

    @Test
    void omittedFieldsTakeTheTemplateAndCatalogDefaults() {
        TrinoSpec spec = spec(null, null, null);
        assertThat(spec.warehouse()).isEqualTo("lakehouse");
        assertThat(spec.storage()).isEqualTo(EngineFixtures.bucket());
        assertThat(spec.workers()).isEqualTo(2);
        assertThat(spec.coordinatorMemory()).isEqualTo("4Gi");
        assertThat(spec.workerMemory()).isEqualTo("4Gi");
        assertThat(spec.cpu()).isEqualTo("2");
        assertThat(errors("sql", spec)).isEmpty();
    }

    @Test
    void podMemoryBelowThreeGibibytesIsRefusedNamingTheRule() {
        assertThat(errors("sql", spec(null, "3Gi", "3072Mi"))).isEmpty();
        List<FieldError> errors = errors("sql", spec(null, "2Gi", "3071Mi"));
        assertThat(errors).extracting(FieldError::field).containsExactly("spec.coordinatorMemory", "spec.workerMemory");
        assertThat(errors.get(0).message()).contains("at least 3Gi", "JVM heap fixed at 1.4 GB");
    }

    @Test
    void everyViolationIsReportedAtOnce() {
        TrinoSpec bad = KIND.withDefaults(new TrinoSpec(null, "system", new StorageSpec("B", "ftp://x", "", null,
                null, null, null), 0, "lots", "1Gi", "0"), Optional.empty());
        assertThat(errors("Bad_Name", bad)).extracting(FieldError::field).contains("name", "spec.catalog",
                "spec.warehouse", "spec.storage.bucket", "spec.storage.endpoint", "spec.workers",
                "spec.coordinatorMemory", "spec.workerMemory", "spec.cpu");
    }

    /** The warehouse is only a property now: any Polaris catalog name the catalog accepts is accepted. */
    @Test
    void theWarehouseFollowsTheSharedPolarisRule() {
        TrinoSpec upper = KIND.withDefaults(new TrinoSpec("lakehouse-cat", "Sales-DW", null, null, null, null, null),
                Optional.of(EngineFixtures.catalog()));
        assertThat(errors("sql", upper)).isEmpty();
        TrinoSpec reserved = KIND.withDefaults(new TrinoSpec("lakehouse-cat", "System", null, null, null, null, null),
                Optional.of(EngineFixtures.catalog()));
        assertThat(errors("sql", reserved)).extracting(FieldError::message).containsExactly(Warehouses.RULE);
    }

    @Test
    void withoutAKnownCatalogTheStorageMustBeGiven() {
        TrinoSpec spec = KIND.withDefaults(new TrinoSpec("other", null, null, null, null, null, null), Optional.empty());
        assertThat(spec.warehouse()).isEqualTo("lakehouse");
        assertThat(errors("sql", spec)).extracting(FieldError::field).containsExactly("spec.storage");
    }

    @Test
    void theTemplateOffersEveryFieldWithItsDefault() {
        assertThat(KIND.template().category()).isEqualTo("Processing");
        assertThat(KIND.template().fields()).extracting(f -> f.path()).contains("spec.catalog", "spec.warehouse",
                "spec.workers", "spec.coordinatorMemory", "spec.workerMemory", "spec.cpu", "spec.storage.bucket");
        assertThat(KIND.template().fields()).filteredOn(f -> f.path().equals("spec.coordinatorMemory")).singleElement()
                .satisfies(f -> assertThat(f.min()).isEqualTo("3Gi"));
    }
}
