package io.lakehouse.catalog.unit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.lakehouse.catalog.domain.CatalogSpec;
import io.lakehouse.catalog.reconcile.CatalogTasks;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.storage.StorageSpec;
import io.lakehouse.common.testing.OpenApiSchemas;
import io.lakehouse.common.testing.SchemaSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bodies of the catalog-init task (catalog.json, grant.json) against Polaris' management API
 * (src/test/resources/polaris/polaris-management-service.yml), discriminators included.
 */
class PolarisManagementRequestsTest {

    private static final OpenApiSchemas POLARIS = load();

    private static OpenApiSchemas load() {
        try {
            return OpenApiSchemas.load(Path.of(PolarisManagementRequestsTest.class
                    .getResource("/polaris/polaris-management-service.yml").toURI()));
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode body(Instance inst, String key) {
        ConfigMap config = CatalogTasks.catalogInitConfig(inst, Fixtures.context(), Fixtures.owner());
        try {
            return SchemaSupport.JSON.readTree(config.getData().get(key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode catalogJson() {
        return (ObjectNode) body(Fixtures.withCredentialsSecret(), "catalog.json");
    }

    private static ObjectNode grantJson() {
        return (ObjectNode) body(Fixtures.withCredentialsSecret(), "grant.json");
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void catalogJsonIsACreateCatalogRequest() {
        POLARIS.assertValid("CreateCatalogRequest", catalogJson());
        POLARIS.assertValid("CreateCatalogRequest", body(Fixtures.withInlineKeys(), "catalog.json"));
    }

    @Test
    void grantJsonIsAnAddGrantRequest() {
        POLARIS.assertValid("AddGrantRequest", grantJson());
    }

    @Test
    void aCatalogWithoutStorageTypeIsRefusedByTheSchema() {
        ObjectNode broken = catalogJson();
        ((ObjectNode) broken.at("/catalog/storageConfigInfo")).remove("storageType");
        assertThat(POLARIS.validate("CreateCatalogRequest", broken)).anySatisfy(m -> assertThat(m).contains("storageType"));
    }

    @Test
    void propertiesWithoutDefaultBaseLocationAreRefusedByTheSchema() {
        ObjectNode broken = catalogJson();
        ((ObjectNode) broken.at("/catalog/properties")).remove("default-base-location");
        assertThat(POLARIS.validate("CreateCatalogRequest", broken))
                .anySatisfy(m -> assertThat(m).contains("default-base-location"));
    }

    @Test
    void theS3SubtypeIsValidatedThroughTheDiscriminator() {
        ObjectNode broken = catalogJson();
        ((ObjectNode) broken.at("/catalog/storageConfigInfo")).put("stsUnavailable", "yes");
        assertThat(POLARIS.validate("CreateCatalogRequest", broken))
                .anySatisfy(m -> assertThat(m).contains("$.catalog.storageConfigInfo.stsUnavailable"));
    }

    @Test
    void anUnknownPrivilegeIsRefusedThroughTheGrantDiscriminator() {
        ObjectNode broken = grantJson();
        ((ObjectNode) broken.get("grant")).put("privilege", "NOT_A_PRIVILEGE");
        assertThat(POLARIS.validate("AddGrantRequest", broken))
                .anySatisfy(m -> assertThat(m).contains("$.grant.privilege"));
    }

    @Test
    void aCatalogGrantWithoutPrivilegeIsRefused() {
        ObjectNode broken = grantJson();
        ((ObjectNode) broken.get("grant")).remove("privilege");
        assertThat(POLARIS.validate("AddGrantRequest", broken)).anySatisfy(m -> assertThat(m).contains("privilege"));
    }

    @Test
    void everyFieldSentIsOneTheApiDeclares() {
        ObjectNode request = catalogJson();
        assertThat(names(request)).isSubsetOf(POLARIS.declaredProperties("CreateCatalogRequest"));
        assertThat(names(request.get("catalog"))).isSubsetOf(POLARIS.declaredProperties("PolarisCatalog"));
        assertThat(names(request.at("/catalog/storageConfigInfo")))
                .isSubsetOf(POLARIS.declaredProperties("AwsStorageConfigInfo"));
        assertThat(names(grantJson().get("grant"))).isSubsetOf(POLARIS.declaredProperties("CatalogGrant"));
    }

    @Test
    void theCatalogIsAnInternalOneNamedAfterTheSpec() {
        JsonNode catalog = catalogJson().get("catalog");
        assertThat(catalog.path("type").asText()).isEqualTo("INTERNAL");
        assertThat(catalog.path("name").asText()).isEqualTo(CatalogSpec.DEFAULT_CATALOG_NAME);
    }

    @Test
    void theStorageIsS3WithoutStsOnTheBucketEndpointAndRegion() {
        JsonNode storage = catalogJson().at("/catalog/storageConfigInfo");
        assertThat(storage.path("storageType").asText()).isEqualTo("S3");
        assertThat(storage.path("stsUnavailable").isBoolean()).isTrue();
        assertThat(storage.path("stsUnavailable").asBoolean()).isTrue();
        assertThat(storage.path("endpoint").asText()).isEqualTo(Fixtures.ENDPOINT);
        assertThat(storage.path("region").asText()).isEqualTo(Fixtures.REGION);
        assertThat(storage.path("pathStyleAccess").isBoolean()).isTrue();
        assertThat(storage.path("pathStyleAccess").asBoolean()).isTrue();
        assertThat(storage.has("roleArn")).isFalse();
    }

    @Test
    void theAllowedLocationsContainTheDefaultBaseLocationOnTheBucket() {
        JsonNode catalog = catalogJson().get("catalog");
        String base = catalog.at("/properties/default-base-location").asText();
        assertThat(base).isEqualTo("s3://" + Fixtures.BUCKET + "/");
        List<String> allowed = new ArrayList<>();
        catalog.at("/storageConfigInfo/allowedLocations").forEach(l -> allowed.add(l.asText()));
        assertThat(allowed).contains(base);
    }

    @Test
    void pathStyleAccessFollowsTheSpec() {
        CatalogSpec spec = Fixtures.requestWithSecret().withDefaults();
        StorageSpec s = spec.storage();
        Instance virtualHosted = Fixtures.instance(
                spec.withStorage(new StorageSpec(s.bucket(), s.endpoint(), s.region(), false, s.credentialsSecret(),
                        null, null)), null);
        assertThat(body(virtualHosted, "catalog.json").at("/catalog/storageConfigInfo/pathStyleAccess").asBoolean())
                .isFalse();
    }

    @Test
    void theGrantGivesCatalogManageContentOnTheCatalog() {
        JsonNode grant = grantJson().get("grant");
        assertThat(grant.path("type").asText()).isEqualTo("catalog");
        assertThat(grant.path("privilege").asText()).isEqualTo("CATALOG_MANAGE_CONTENT");
    }
}
