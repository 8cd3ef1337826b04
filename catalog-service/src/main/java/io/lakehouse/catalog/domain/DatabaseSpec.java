package io.lakehouse.catalog.domain;

/** The CloudNativePG database created alongside the catalog. */
public record DatabaseSpec(String storageSize) {}
