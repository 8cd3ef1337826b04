package io.lakehouse.common.validation;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.regex.Pattern;

/** S3 bucket names (AWS naming rules), endpoints and regions. */
public final class S3Locations {

    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern REGION = Pattern.compile("[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?");

    private S3Locations() {}

    public static void checkBucket(Violations v, String field, String bucket) {
        if (bucket == null || bucket.isEmpty()) {
            v.add(field, "is required");
        } else if (!BUCKET.matcher(bucket).matches() || bucket.contains("..") || IPV4.matcher(bucket).matches()
                || bucket.startsWith("xn--") || bucket.endsWith("-s3alias")) {
            v.add(field, "'" + bucket + "' is not a valid S3 bucket name (3-63 lowercase letters, digits, '.' and"
                    + " '-', starting and ending with a letter or digit)");
        }
    }

    /** An http(s) URL with a host, optional port, and nothing else (no path, query or credentials). */
    public static void checkEndpoint(Violations v, String field, String endpoint) {
        if (endpoint == null || endpoint.isEmpty()) {
            v.add(field, "is required");
            return;
        }
        try {
            URI uri = new URI(endpoint);
            boolean ok = ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                    && uri.getHost() != null && HOST.matcher(uri.getHost()).matches()
                    && uri.getRawUserInfo() == null && uri.getRawQuery() == null && uri.getRawFragment() == null
                    && (uri.getRawPath() == null || uri.getRawPath().isEmpty() || "/".equals(uri.getRawPath()));
            if (!ok) {
                v.add(field, "must be an http(s) URL with a host and optional port only, e.g. https://s3.example.org");
            }
        } catch (URISyntaxException e) {
            v.add(field, "is not a valid URL");
        }
    }

    public static void checkRegion(Violations v, String field, String region) {
        if (region == null || region.isEmpty()) {
            v.add(field, "is required");
        } else if (!REGION.matcher(region).matches()) {
            v.add(field, "'" + region + "' is not a valid region (lowercase letters, digits and '-')");
        }
    }
}
