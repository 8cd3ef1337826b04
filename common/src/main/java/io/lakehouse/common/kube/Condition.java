package io.lakehouse.common.kube;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;

/**
 * A status condition with Kubernetes semantics: {@code lastTransitionTime} changes only when
 * {@code status} flips; {@code observedGeneration} is the spec generation it was computed from.
 */
public record Condition(
        String type, String status, String reason, String message, Instant lastTransitionTime, long observedGeneration) {

    public static final String TRUE = "True";
    public static final String FALSE = "False";
    public static final String UNKNOWN = "Unknown";

    @JsonIgnore
    public boolean isTrue() {
        return TRUE.equals(status);
    }
}
