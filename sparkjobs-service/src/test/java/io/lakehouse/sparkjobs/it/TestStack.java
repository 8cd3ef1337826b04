package io.lakehouse.sparkjobs.it;

import io.lakehouse.common.testing.Callers;
import io.lakehouse.common.testing.ServiceTestStack;
import java.util.List;
import java.util.Map;

/** sparkjobs-service against the real PostgreSQL (schema {@code sparkjobs}) and Kafka, with its own token issuer. */
public class TestStack extends ServiceTestStack {

    public TestStack() {
        super("sparkjobs-service", "sparkjobs", List.of("lakehouse-access", "lakehouse-instances"));
    }

    @Override
    protected Map<String, String> serviceProperties() {
        // No operator plays the mock API: a job stays NEW, noted after 3 s instead of a minute. The
        // cluster's registry Secret and S3 checksum setting reach every job (LaunchTest).
        return Map.of("quarkus.oidc.public-key", Callers.TOKENS.publicKeyBase64(),
                "quarkus.oidc.token.issuer", Callers.ISSUER,
                "lakehouse.sparkjobs.operator-answer-timeout", "3s",
                "lakehouse.cluster.image-pull-secret", Api.CLUSTER_PULL_SECRET,
                "lakehouse.cluster.s3-checksum-when-required", "true");
    }
}
