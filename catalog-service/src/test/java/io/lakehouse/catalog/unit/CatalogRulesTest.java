package io.lakehouse.catalog.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.lakehouse.catalog.domain.CatalogRules;
import io.lakehouse.catalog.domain.CatalogSpec;
import io.lakehouse.catalog.domain.DatabaseSpec;
import io.lakehouse.catalog.domain.ResourcesSpec;
import io.lakehouse.common.problem.ApiException;
import io.lakehouse.common.problem.FieldError;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.common.validation.Quantities;
import io.lakehouse.common.validation.Violations;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CatalogRulesTest {

    private static final String NS = "team-a";

    private static StorageSpec storage() {
        return new StorageSpec("lake-bucket", "https://s3.example.org", "eu-west-3", null, "lake-keys", null, null);
    }

    private static CatalogSpec spec(StorageSpec storage) {
        return new CatalogSpec(storage, null, null, null, null);
    }

    private static CatalogSpec withCatalogName(String catalogName) {
        return new CatalogSpec(storage(), catalogName, null, null, null);
    }

    private static CatalogSpec withRealm(String realm) {
        return new CatalogSpec(storage(), null, realm, null, null);
    }

    private static CatalogSpec withCapacity(String memory, String cpu, String storageSize) {
        return new CatalogSpec(storage(), null, null, new ResourcesSpec(memory, cpu), new DatabaseSpec(storageSize));
    }

    private static StorageSpec storage(String bucket, String endpoint, String region, String secret, String keyId,
            String key) {
        return new StorageSpec(bucket, endpoint, region, null, secret, keyId, key);
    }

    private static ApiException refused(String name, CatalogSpec spec) {
        ApiException e = catchThrowableOfType(ApiException.class, () -> CatalogRules.checkCreate(name, NS, spec));
        assertThat(e).as("refused").isNotNull();
        assertThat(e.status()).isEqualTo(422);
        return e;
    }

    private static List<String> fields(ApiException e) {
        return e.errors().stream().map(FieldError::field).toList();
    }

    @Test
    void aValidRequestGetsTheTemplateDefaults() {
        CatalogSpec spec = CatalogRules.checkCreate("warehouse", NS, spec(storage()));
        assertThat(spec.catalogName()).isEqualTo("lakehouse");
        assertThat(spec.realm()).isEqualTo("POLARIS");
        assertThat(spec.resources()).isEqualTo(new ResourcesSpec("1Gi", "1"));
        assertThat(spec.database()).isEqualTo(new DatabaseSpec("1Gi"));
        assertThat(spec.storage().pathStyleAccess()).isTrue();
    }

    @Test
    void givenValuesAreKept() {
        CatalogSpec spec = CatalogRules.checkCreate("warehouse", NS,
                new CatalogSpec(storage(), "sales", "ACME", new ResourcesSpec("2Gi", "500m"), new DatabaseSpec("5Gi")));
        assertThat(spec.catalogName()).isEqualTo("sales");
        assertThat(spec.realm()).isEqualTo("ACME");
        assertThat(spec.resources()).isEqualTo(new ResourcesSpec("2Gi", "500m"));
        assertThat(spec.database()).isEqualTo(new DatabaseSpec("5Gi"));
    }

    @Test
    void inlineKeysAreAcceptedInsteadOfASecret() {
        CatalogRules.checkCreate("warehouse", NS,
                spec(storage("lake-bucket", "https://s3.example.org", "eu-west-3", null, "AKIA1", "s3cr3t/+=")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Warehouse", "1warehouse", "ware_house", "warehouse-", "-warehouse", "ware.house"})
    void aMalformedNameIsRefusedOnName(String name) {
        assertThat(fields(refused(name, spec(storage())))).containsExactly("name");
    }

    @Test
    void aMissingNameIsRefusedOnName() {
        assertThat(fields(refused(null, spec(storage())))).containsExactly("name");
        assertThat(fields(refused("", spec(storage())))).containsExactly("name");
    }

    @Test
    void aNameWhoseDerivedObjectNamesWouldExceed63IsRefused() {
        String name = "a".repeat(63 - "-root-principal".length() + 1);
        ApiException e = refused(name, spec(storage()));
        assertThat(e.errors()).singleElement().satisfies(err -> {
            assertThat(err.field()).isEqualTo("name");
            assertThat(err.message()).contains("-root-principal");
        });
    }

    @Test
    void aNameWhosePublicHostLabelWouldExceed63InThisNamespaceIsRefused() {
        String namespace = "n".repeat(30);
        String name = "a".repeat(63 - namespace.length()); // name-namespace: 64 characters
        ApiException e = catchThrowableOfType(ApiException.class,
                () -> CatalogRules.checkCreate(name, namespace, spec(storage())));
        assertThat(e.status()).isEqualTo(422);
        assertThat(e.errors()).singleElement().satisfies(err -> {
            assertThat(err.field()).isEqualTo("name");
            assertThat(err.message()).contains("host label");
        });
    }

    @Test
    void aMissingSpecIsRefused() {
        assertThat(fields(refused("warehouse", null))).containsExactly("spec");
    }

    @Test
    void aMissingStorageIsRefused() {
        assertThat(fields(refused("warehouse", spec(null)))).containsExactly("spec.storage");
    }

    @Test
    void aMissingBucketIsRefused() {
        assertThat(fields(refused("warehouse", spec(storage(null, "https://s3.example.org", "eu-west-3", "k", null,
                null))))).containsExactly("spec.storage.bucket");
    }

    @Test
    void aMalformedBucketIsRefused() {
        assertThat(fields(refused("warehouse", spec(storage("Lake_Bucket", "https://s3.example.org", "eu-west-3", "k",
                null, null))))).containsExactly("spec.storage.bucket");
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3.example.org", "https://s3.example.org/lake-bucket", "https://u:p@s3.example.org",
            "ftp://s3.example.org", ""})
    void aBadEndpointIsRefused(String endpoint) {
        assertThat(fields(refused("warehouse", spec(storage("lake-bucket", endpoint, "eu-west-3", "k", null, null)))))
                .containsExactly("spec.storage.endpoint");
    }

    @Test
    void aBadRegionIsRefused() {
        assertThat(fields(refused("warehouse", spec(storage("lake-bucket", "https://s3.example.org", "EU WEST", "k",
                null, null))))).containsExactly("spec.storage.region");
    }

    @Test
    void bothACredentialsSecretAndKeysAreRefused() {
        ApiException e = refused("warehouse", spec(storage("lake-bucket", "https://s3.example.org", "eu-west-3",
                "lake-keys", "AKIA1", "secret")));
        assertThat(fields(e)).containsExactly("spec.storage");
        assertThat(e.errors().get(0).message()).contains("credentialsSecret").contains("accessKeyId");
    }

    @Test
    void neitherACredentialsSecretNorKeysIsRefused() {
        assertThat(fields(refused("warehouse", spec(storage("lake-bucket", "https://s3.example.org", "eu-west-3", null,
                null, null))))).containsExactly("spec.storage");
    }

    @Test
    void halfOfTheKeysIsRefusedOnTheMissingOne() {
        assertThat(fields(refused("warehouse", spec(storage("lake-bucket", "https://s3.example.org", "eu-west-3", null,
                "AKIA1", null))))).containsExactly("spec.storage.secretAccessKey");
        assertThat(fields(refused("warehouse", spec(storage("lake-bucket", "https://s3.example.org", "eu-west-3", null,
                null, "secret"))))).containsExactly("spec.storage.accessKeyId");
    }

    @Test
    void keysWithSpacesAreRefused() {
        assertThat(fields(refused("warehouse", spec(storage("lake-bucket", "https://s3.example.org", "eu-west-3", null,
                "AKIA 1", "secret"))))).containsExactly("spec.storage.accessKeyId");
    }

    @Test
    void aMalformedCredentialsSecretNameIsRefused() {
        assertThat(fields(refused("warehouse", spec(storage("lake-bucket", "https://s3.example.org", "eu-west-3",
                "Lake_Keys", null, null))))).containsExactly("spec.storage.credentialsSecret");
    }

    @ParameterizedTest
    @ValueSource(strings = {"system", "SYSTEM", "System"})
    void theReservedCatalogNameSystemIsRefused(String catalogName) {
        assertThat(fields(refused("warehouse", withCatalogName(catalogName)))).containsExactly("spec.catalogName");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1sales", "sales catalog", "sales/2026", "sales.db"})
    void aMalformedCatalogNameIsRefused(String catalogName) {
        assertThat(fields(refused("warehouse", withCatalogName(catalogName)))).containsExactly("spec.catalogName");
    }

    @Test
    void aCatalogNameLongerThan63IsRefused() {
        assertThat(fields(refused("warehouse", withCatalogName("c".repeat(64))))).containsExactly("spec.catalogName");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "MY REALM", "realm,with,commas", "-x"})
    void aMalformedRealmIsRefused(String realm) {
        assertThat(fields(refused("warehouse", withRealm(realm)))).containsExactly("spec.realm");
    }

    @Test
    void memoryBelow512MiIsRefused() {
        ApiException e = refused("warehouse", withCapacity("511Mi", "1", "1Gi"));
        assertThat(e.errors()).containsExactly(new FieldError("spec.resources.memory", "must be at least 512Mi"));
    }

    @Test
    void cpuBelow100mIsRefused() {
        ApiException e = refused("warehouse", withCapacity("1Gi", "99m", "1Gi"));
        assertThat(e.errors()).containsExactly(new FieldError("spec.resources.cpu", "must be at least 100m"));
    }

    @Test
    void storageBelow1GiIsRefused() {
        ApiException e = refused("warehouse", withCapacity("1Gi", "1", "1023Mi"));
        assertThat(e.errors()).containsExactly(new FieldError("spec.database.storageSize", "must be at least 1Gi"));
    }

    @Test
    void capacityAboveTheMaximumIsRefused() {
        assertThat(fields(refused("warehouse", withCapacity("65Gi", "33", "11Ti"))))
                .containsExactly("spec.resources.memory", "spec.resources.cpu", "spec.database.storageSize");
    }

    @Test
    void malformedQuantitiesAreRefused() {
        assertThat(fields(refused("warehouse", withCapacity("1gb", "one", "-1"))))
                .containsExactly("spec.resources.memory", "spec.resources.cpu", "spec.database.storageSize");
    }

    @Test
    void theMinimumsThemselvesAreAccepted() {
        CatalogRules.checkCreate("warehouse", NS, withCapacity("512Mi", "100m", "1Gi"));
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        ApiException e = refused("Bad_Name", new CatalogSpec(
                storage("Bad_Bucket", "ftp://x", "eu-west-3", "lake-keys", null, null), "system", "bad realm",
                new ResourcesSpec("1Mi", "1m"), new DatabaseSpec("1Mi")));
        assertThat(fields(e)).containsExactlyInAnyOrder("name", "spec.storage.bucket", "spec.storage.endpoint",
                "spec.catalogName", "spec.realm", "spec.resources.memory", "spec.resources.cpu",
                "spec.database.storageSize");
        assertThat(e.code()).isEqualTo("invalid");
    }

    @Test
    void storageMayGrowButNeverShrink() {
        Violations v = new Violations();
        Quantities.checkGrowth(v, "spec.database.storageSize", "10Gi", "20Gi");
        Quantities.checkGrowth(v, "spec.database.storageSize", "10Gi", "10240Mi");
        assertThat(v.isEmpty()).isTrue();
        Quantities.checkGrowth(v, "spec.database.storageSize", "10Gi", "9Gi");
        assertThat(v.errors()).singleElement().satisfies(err -> {
            assertThat(err.field()).isEqualTo("spec.database.storageSize");
            assertThat(err.message()).contains("cannot shrink from 10Gi to 9Gi");
        });
    }
}
