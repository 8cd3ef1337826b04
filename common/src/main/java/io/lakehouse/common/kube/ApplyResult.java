package io.lakehouse.common.kube;

/** What one apply did. */
public enum ApplyResult {
    CREATED,
    UPDATED,
    UNCHANGED
}
