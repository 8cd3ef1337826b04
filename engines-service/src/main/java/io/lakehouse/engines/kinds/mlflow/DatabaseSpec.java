package io.lakehouse.engines.kinds.mlflow;

/** The PostgreSQL database of the tracking server: its volume size (grows, never shrinks). */
public record DatabaseSpec(String storageSize) {}
