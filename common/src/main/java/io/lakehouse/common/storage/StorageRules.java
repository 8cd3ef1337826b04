package io.lakehouse.common.storage;

import io.lakehouse.common.validation.Names;
import io.lakehouse.common.validation.S3Locations;
import io.lakehouse.common.validation.Violations;
import java.util.regex.Pattern;

/** The rules of an S3 storage block, shared by every template that takes a bucket. */
public final class StorageRules {

    private static final Pattern ACCESS_KEY = Pattern.compile("[\\x21-\\x7E]{1,256}");

    private StorageRules() {}

    /** Bucket, endpoint, region, and either a credentials Secret or both inline keys. */
    public static void check(Violations v, String field, StorageSpec storage) {
        if (storage == null) {
            v.add(field, "is required: the S3 bucket");
            return;
        }
        S3Locations.checkBucket(v, field + ".bucket", storage.bucket());
        S3Locations.checkEndpoint(v, field + ".endpoint", storage.endpoint());
        S3Locations.checkRegion(v, field + ".region", storage.region());
        boolean secret = storage.credentialsSecret() != null;
        if (secret == storage.hasInlineKeys()) {
            v.add(field, "give either credentialsSecret (a Secret of the namespace) or accessKeyId and"
                    + " secretAccessKey");
            return;
        }
        if (secret && !Names.isDns1123Label(storage.credentialsSecret())) {
            v.add(field + ".credentialsSecret", "is not a valid Secret name");
        }
        if (!secret) {
            checkKey(v, field + ".accessKeyId", storage.accessKeyId());
            checkKey(v, field + ".secretAccessKey", storage.secretAccessKey());
        }
    }

    private static void checkKey(Violations v, String field, String value) {
        if (value == null || value.isEmpty()) {
            v.add(field, "is required with inline keys");
        } else if (!ACCESS_KEY.matcher(value).matches()) {
            v.add(field, "must be 1-256 printable characters without spaces");
        }
    }
}
