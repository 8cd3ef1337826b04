package io.lakehouse.catalog.domain;

/** Memory and CPU limit of the Polaris server (requests equal limits). */
public record ResourcesSpec(String memory, String cpu) {}
