package io.lakehouse.common.storage;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The warehouse bucket. Credentials are either the name of a Secret of the namespace holding
 * {@code AWS_ACCESS_KEY_ID} / {@code AWS_SECRET_ACCESS_KEY} (a namespace bucket), or keys typed in the
 * form, which the service writes to {@code <name>-s3} and never echoes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StorageSpec(
        String bucket,
        String endpoint,
        String region,
        Boolean pathStyleAccess,
        String credentialsSecret,
        String accessKeyId,
        String secretAccessKey) {

    public boolean hasInlineKeys() {
        return accessKeyId != null || secretAccessKey != null;
    }

    /** The stored form: inline keys replaced by the Secret they are written to. */
    public StorageSpec withoutKeys(String secretName) {
        return new StorageSpec(bucket, endpoint, region, pathStyleAccess, secretName, null, null);
    }

    public StorageSpec withDefaults() {
        return new StorageSpec(bucket, endpoint, region, pathStyleAccess == null ? Boolean.TRUE : pathStyleAccess,
                credentialsSecret, accessKeyId, secretAccessKey);
    }

    /** Location of the warehouse: tables and metadata live under it. */
    public String baseLocation() {
        return "s3://" + bucket + "/";
    }
}
