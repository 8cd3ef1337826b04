package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** What one apply did, and the object as the API server now has it (or as last cached, if unchanged). */
public record Applied(ApplyResult result, HasMetadata live) {}
