package io.lakehouse.sparkjobs.domain;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A spark-connect instance's job profile as engines-service publishes it ({@code spec.profile} of its
 * instance events): image, pull secret, the session's non-secret properties, and the Secrets the
 * catalog and bucket credentials come from, by reference only.
 *
 * @param sparkConfFromEnv properties whose values are {@code ${VAR}} words over {@code secretEnv}
 */
public record JobProfile(String image, String pullSecret, Map<String, String> sparkConf, List<SecretEnv> secretEnv,
        Map<String, String> sparkConfFromEnv) {

    public JobProfile {
        sparkConf = ordered(sparkConf);
        secretEnv = secretEnv == null ? List.of() : List.copyOf(secretEnv);
        sparkConfFromEnv = ordered(sparkConfFromEnv);
    }

    /**
     * In the profile's own order: {@code Map.copyOf} iterates in an order that changes with each JVM, so the
     * same profile gave replicas (and restarts) differently ordered {@code SPARK_SUBMIT_OPTS}.
     */
    private static Map<String, String> ordered(Map<String, String> map) {
        return map == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    public record SecretEnv(String name, String secret, String key) {}

    /** An explicit image: no catalog, no credentials. */
    public static JobProfile image(String image, String pullSecret) {
        return new JobProfile(image, pullSecret, Map.of(), List.of(), Map.of());
    }
}
