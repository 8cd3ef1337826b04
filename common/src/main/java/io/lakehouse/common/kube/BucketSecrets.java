package io.lakehouse.common.kube;

import io.fabric8.kubernetes.api.model.Secret;
import java.util.List;
import java.util.Map;

/**
 * Namespace buckets: Secrets labelled {@code lakehouse.io/bucket=true} that the platform writes in a
 * namespace for each bucket it may use. Annotations describe the bucket, the data holds its keys
 * ({@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY}), so pods can take them by reference.
 */
public final class BucketSecrets {

    public static final String LABEL = "lakehouse.io/bucket";
    public static final String BUCKET_NAME = "lakehouse.io/bucket-name";
    public static final String ENDPOINT = "lakehouse.io/endpoint";
    public static final String REGION = "lakehouse.io/region";
    public static final String PATH_STYLE = "lakehouse.io/path-style";
    public static final String ACCESS_KEY_ID = "AWS_ACCESS_KEY_ID";
    public static final String SECRET_ACCESS_KEY = "AWS_SECRET_ACCESS_KEY";

    private BucketSecrets() {}

    /** What a form needs to fill the storage fields: never the keys themselves. */
    public record Bucket(String name, String bucket, String endpoint, String region, boolean pathStyleAccess,
            String credentialsSecret) {}

    public static Bucket describe(Secret secret) {
        Map<String, String> a = secret.getMetadata().getAnnotations() == null ? Map.of()
                : secret.getMetadata().getAnnotations();
        String name = secret.getMetadata().getName();
        return new Bucket(name, a.getOrDefault(BUCKET_NAME, name), a.get(ENDPOINT), a.get(REGION),
                !"false".equalsIgnoreCase(a.getOrDefault(PATH_STYLE, "true")), name);
    }

    /** Whether a Secret is a namespace bucket (labelled as one). */
    public static boolean isBucket(Secret secret) {
        Map<String, String> labels = secret.getMetadata().getLabels();
        return labels != null && "true".equals(labels.get(LABEL));
    }

    /** Whether a Secret, full or compact (from the informer cache), can serve as S3 credentials (both keys present). */
    public static boolean hasKeys(Secret secret) {
        return CompactObject.dataKeys(secret).containsAll(List.of(ACCESS_KEY_ID, SECRET_ACCESS_KEY));
    }
}
