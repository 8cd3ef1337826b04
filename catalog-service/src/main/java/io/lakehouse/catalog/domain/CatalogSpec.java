package io.lakehouse.catalog.domain;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.storage.StorageSpec;

/** The fields of the {@code iceberg-catalog} template. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CatalogSpec(
        StorageSpec storage, String catalogName, String realm, ResourcesSpec resources, DatabaseSpec database)
        implements InstanceSpec {

    public static final String DEFAULT_CATALOG_NAME = "lakehouse";
    public static final String DEFAULT_REALM = "POLARIS";
    public static final String DEFAULT_MEMORY = "1Gi";
    public static final String DEFAULT_CPU = "1";
    public static final String DEFAULT_STORAGE_SIZE = "1Gi";

    /** The same spec with every omitted field at the template's default. */
    public CatalogSpec withDefaults() {
        ResourcesSpec r = resources == null ? new ResourcesSpec(null, null) : resources;
        return new CatalogSpec(
                storage == null ? null : storage.withDefaults(),
                catalogName == null ? DEFAULT_CATALOG_NAME : catalogName,
                realm == null ? DEFAULT_REALM : realm,
                new ResourcesSpec(r.memory() == null ? DEFAULT_MEMORY : r.memory(),
                        r.cpu() == null ? DEFAULT_CPU : r.cpu()),
                new DatabaseSpec(database == null || database.storageSize() == null ? DEFAULT_STORAGE_SIZE
                        : database.storageSize()));
    }

    @Override
    public CatalogSpec withStorage(StorageSpec newStorage) {
        return new CatalogSpec(newStorage, catalogName, realm, resources, database);
    }

    public CatalogSpec withCapacity(ResourcesSpec newResources, DatabaseSpec newDatabase) {
        return new CatalogSpec(storage, catalogName, realm, newResources, newDatabase);
    }
}
