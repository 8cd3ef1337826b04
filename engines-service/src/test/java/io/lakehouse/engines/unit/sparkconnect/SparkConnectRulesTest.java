package io.lakehouse.engines.unit.sparkconnect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakehouse.common.instances.CatalogRef;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.problem.FieldError;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.common.validation.Violations;
import io.lakehouse.engines.kinds.sparkconnect.SparkConnectKind;
import io.lakehouse.engines.kinds.sparkconnect.SparkConnectSpec;
import io.lakehouse.engines.unit.EngineFixtures;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Defaults and rules of the spark-connect template: what a 422 tells the user. */
class SparkConnectRulesTest {

    private static final SparkConnectKind KIND = SparkConnectFixtures.KIND;
    private static final String CATALOG = EngineFixtures.CATALOG;

    @Test
    void omittedFieldsTakeTheTemplateDefaultsAndTheCatalogsBucket() {
        assertThat(SparkConnectFixtures.spec(SparkConnectFixtures.catalogOnly())).isEqualTo(new SparkConnectSpec(
                CATALOG, "lakehouse", EngineFixtures.bucket(), 2, "2Gi", "3Gi", true));
        assertThat(errors("spark", SparkConnectFixtures.catalogOnly())).isEmpty();
    }

    @Test
    void theWarehouseAndTheBucketComeFromTheReferencedCatalog() {
        StorageSpec sales = new StorageSpec("sales", "https://s3.example.org", "eu-west-1", false, "sales-keys", null,
                null);
        CatalogRef catalog = new CatalogRef(EngineFixtures.NAMESPACE, CATALOG, "sales_wh", sales, "Ready", false);

        SparkConnectSpec spec = KIND.withDefaults(SparkConnectFixtures.catalogOnly(), Optional.of(catalog));

        assertThat(spec.warehouse()).isEqualTo("sales_wh");
        assertThat(spec.storage()).isEqualTo(sales);
    }

    @Test
    void aGivenWarehouseAndBucketWinOverTheCatalogs() {
        StorageSpec own = new StorageSpec("own-bucket", "https://s3.example.org", "eu-west-1", null, "own-keys", null,
                null);
        SparkConnectSpec spec = SparkConnectFixtures.spec(
                new SparkConnectSpec(CATALOG, "other", own, null, null, null, null));

        assertThat(spec.warehouse()).isEqualTo("other");
        assertThat(spec.storage()).as("path-style by default").isEqualTo(own.withDefaults());
    }

    @Test
    void withoutAKnownCatalogTheWarehouseIsLakehouseAndTheBucketIsRequired() {
        SparkConnectSpec spec = KIND.withDefaults(SparkConnectFixtures.catalogOnly(), Optional.empty());
        Violations v = new Violations();
        KIND.checkCreate(v, "spark", EngineFixtures.NAMESPACE, spec);

        assertThat(spec.warehouse()).isEqualTo("lakehouse");
        assertThat(v.errors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("spec.storage");
            assertThat(e.message()).contains("is required");
        });
    }

    @Test
    void anEmptyRequestNeedsItsCatalog() {
        SparkConnectSpec spec = KIND.withDefaults(null, Optional.empty());
        Violations v = new Violations();
        KIND.checkCreate(v, "spark", EngineFixtures.NAMESPACE, spec);

        assertThat(v.errors()).extracting(FieldError::field).containsExactlyInAnyOrder("spec.catalog", "spec.storage");
        assertThat(v.errors()).filteredOn(e -> e.field().equals("spec.catalog")).singleElement()
                .satisfies(e -> assertThat(e.message()).contains("iceberg-catalog"));
    }

    @Test
    void anOmittedPodMemoryIsTheDriverMemoryPlusOneGibibyte() {
        assertThat(SparkConnectFixtures.spec(driver("6Gi", null)).podMemory()).isEqualTo("7Gi");
        assertThat(SparkConnectFixtures.spec(driver("1536Mi", null)).podMemory()).isEqualTo("2560Mi");
        assertThat(SparkConnectFixtures.spec(driver("2G", null)).podMemory()).isEqualTo("3073741824");
        assertThat(SparkConnectFixtures.spec(driver("lots", null)).podMemory())
                .as("no sum of a wrong driver memory: its own violation speaks").isEqualTo("3Gi");
        assertThat(errors("spark", driver("6Gi", null))).isEmpty();
    }

    @Test
    void podMemoryOfExactlyDriverMemoryPlusOneGibibyteIsEnough() {
        assertThat(errors("spark", driver("2Gi", "3Gi"))).isEmpty();
        assertThat(errors("spark", driver("2048Mi", "3072Mi"))).isEmpty();
        assertThat(errors("spark", driver("2G", "3073741824"))).isEmpty();
    }

    @Test
    void lessHeadroomIsRefusedOnThePodMemoryNamingTheRule() {
        List<FieldError> errors = errors("spark", driver("2Gi", "3071Mi"));

        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("spec.podMemory");
            assertThat(e.message()).isEqualTo("must be at least driverMemory + 1Gi (3Gi): Spark needs about 1 Gi of"
                    + " headroom besides its heap");
        });
        assertThat(errors("spark", driver("2G", "3073741823"))).singleElement()
                .satisfies(e -> assertThat(e.message()).contains("(3073741824)"));
    }

    @Test
    void aRefusedRequestIsA422WithEveryError() {
        Violations v = new Violations();
        KIND.checkCreate(v, "Spark", EngineFixtures.NAMESPACE, SparkConnectFixtures.spec(
                new SparkConnectSpec(CATALOG, null, null, 0, "2Gi", "2Gi", null)));

        assertThatThrownBy(v::throwIfAny).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(422);
            assertThat(e.errors()).extracting(FieldError::field)
                    .containsExactlyInAnyOrder("name", "spec.cores", "spec.podMemory");
        });
    }

    @Test
    void coresStayWithinOneToThirtyTwo() {
        assertThat(errors("spark", cores(1))).isEmpty();
        assertThat(errors("spark", cores(32))).isEmpty();
        assertThat(errors("spark", cores(0))).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("spec.cores");
            assertThat(e.message()).contains("between 1 and 32");
        });
        assertThat(errors("spark", cores(33))).extracting(FieldError::field).containsExactly("spec.cores");
    }

    @Test
    void wrongQuantitiesAreRefusedFieldByField() {
        List<FieldError> errors = errors("spark", driver("lots", "4GB"));

        assertThat(errors).extracting(FieldError::field)
                .containsExactlyInAnyOrder("spec.driverMemory", "spec.podMemory");
        assertThat(errors).allSatisfy(e -> assertThat(e.message()).contains("is not a Kubernetes quantity"));
    }

    @Test
    void quantitiesOutsideTheirRangeAreRefused() {
        assertThat(errors("spark", driver("512Mi", "1Gi"))).extracting(FieldError::field)
                .containsExactlyInAnyOrder("spec.driverMemory", "spec.podMemory");
        assertThat(errors("spark", driver("256Gi", "300Gi"))).allSatisfy(e ->
                assertThat(e.message()).startsWith("must be at most"));
    }

    @Test
    void theCatalogWarehouseAndBucketAreChecked() {
        StorageSpec badBucket = new StorageSpec("Bad_Bucket", "ftp://s3", "us-east-1", true, "keys", null, null);
        List<FieldError> errors = errors("spark",
                new SparkConnectSpec("Not A Name", "1st; DROP", badBucket, null, null, null, null));

        assertThat(errors).extracting(FieldError::field).containsExactlyInAnyOrder("spec.catalog", "spec.warehouse",
                "spec.storage.bucket", "spec.storage.endpoint");
    }

    @Test
    void theNameLeavesRoomForItsLongestDerivedName() {
        String longest = "s".repeat(54);
        assertThat(errors(longest, SparkConnectFixtures.catalogOnly())).isEmpty();

        assertThat(errors(longest + "s", SparkConnectFixtures.catalogOnly())).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("name");
            assertThat(e.message()).contains("at most 54");
        });
    }

    @Test
    void capacityIsCheckedAgainOnAPatchAndTheTokenMayChange() {
        SparkConnectSpec created = SparkConnectFixtures.spec(SparkConnectFixtures.catalogOnly());
        Violations v = new Violations();

        KIND.checkCapacity(v, new SparkConnectSpec(CATALOG, created.warehouse(), created.storage(), 4, "4Gi",
                created.podMemory(), true));

        assertThat(v.errors()).extracting(FieldError::field).containsExactly("spec.podMemory");
        assertThat(KIND.fixedFields()).containsExactlyInAnyOrder("catalog", "warehouse", "storage");
    }

    private static SparkConnectSpec driver(String driverMemory, String podMemory) {
        return new SparkConnectSpec(CATALOG, null, null, null, driverMemory, podMemory, null);
    }

    private static SparkConnectSpec cores(int cores) {
        return new SparkConnectSpec(CATALOG, null, null, cores, null, null, null);
    }

    private static List<FieldError> errors(String name, SparkConnectSpec requested) {
        Violations v = new Violations();
        KIND.checkCreate(v, name, EngineFixtures.NAMESPACE, SparkConnectFixtures.spec(requested));
        return v.errors();
    }
}
