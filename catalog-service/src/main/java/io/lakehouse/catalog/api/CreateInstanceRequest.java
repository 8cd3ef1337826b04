package io.lakehouse.catalog.api;

import io.lakehouse.catalog.domain.CatalogSpec;

/** Body of {@code POST .../instances/iceberg-catalog}. */
public record CreateInstanceRequest(String name, CatalogSpec spec) {}
