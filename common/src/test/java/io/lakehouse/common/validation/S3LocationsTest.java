package io.lakehouse.common.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakehouse.common.problem.FieldError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class S3LocationsTest {

    private static Violations bucket(String name) {
        Violations v = new Violations();
        S3Locations.checkBucket(v, "bucket", name);
        return v;
    }

    private static Violations endpoint(String url) {
        Violations v = new Violations();
        S3Locations.checkEndpoint(v, "endpoint", url);
        return v;
    }

    private static Violations region(String name) {
        Violations v = new Violations();
        S3Locations.checkRegion(v, "region", name);
        return v;
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "warehouse", "my-bucket-1", "data.lake.example", "123", "a23456789b123456789c123456789d123456789e123456789f123456789g123"})
    void acceptsValidBucketNames(String name) {
        assertThat(bucket(name).isEmpty()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ab", "Warehouse", "my_bucket", "-bucket", "bucket-", ".bucket", "bucket."})
    void refusesBucketNamesOutsideTheCharacterRules(String name) {
        assertThat(bucket(name).errors()).singleElement()
                .satisfies(e -> assertThat(e.message()).contains("'" + name + "'").contains("not a valid S3 bucket"));
    }

    @Test
    void refusesBucketNamesLongerThan63() {
        assertThat(bucket("a".repeat(64)).has("bucket")).isTrue();
    }

    @Test
    void refusesBucketNamesWithTwoAdjacentDots() {
        assertThat(bucket("data..lake").has("bucket")).isTrue();
    }

    @Test
    void refusesBucketNamesShapedLikeAnIpAddress() {
        assertThat(bucket("192.168.5.4").has("bucket")).isTrue();
    }

    @Test
    void refusesTheReservedXnPrefix() {
        assertThat(bucket("xn--bucket").has("bucket")).isTrue();
    }

    @Test
    void refusesTheReservedS3AliasSuffix() {
        assertThat(bucket("bucket-s3alias").has("bucket")).isTrue();
    }

    @Test
    void requiresABucket() {
        assertThat(bucket("").errors()).containsExactly(new FieldError("bucket", "is required"));
        assertThat(bucket(null).errors()).containsExactly(new FieldError("bucket", "is required"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://s3.example.org", "http://minio:9000", "http://minio.storage.svc:9000/",
            "https://10.0.0.5:443"})
    void acceptsHttpEndpointsWithHostAndOptionalPort(String url) {
        assertThat(endpoint(url).isEmpty()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://s3.example.org/bucket", "https://s3.example.org?x=1",
            "https://user:pw@s3.example.org", "https://s3.example.org#frag", "ftp://s3.example.org",
            "s3.example.org", "https://bad_host"})
    void refusesEndpointsWithPathQueryUserinfoOrAnotherScheme(String url) {
        assertThat(endpoint(url).errors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("endpoint");
            assertThat(e.message()).contains("http(s) URL");
        });
    }

    @Test
    void refusesUnparsableEndpoints() {
        assertThat(endpoint("http://exa mple").errors())
                .containsExactly(new FieldError("endpoint", "is not a valid URL"));
        assertThat(endpoint("https://").errors())
                .containsExactly(new FieldError("endpoint", "is not a valid URL"));
    }

    @Test
    void requiresAnEndpoint() {
        assertThat(endpoint(null).errors()).containsExactly(new FieldError("endpoint", "is required"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"us-east-1", "eu-west-3", "garage", "local"})
    void acceptsRegions(String name) {
        assertThat(region(name).isEmpty()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"US-EAST-1", "us_east_1", "-us", "us-", "us east"})
    void refusesMalformedRegions(String name) {
        assertThat(region(name).has("region")).isTrue();
    }

    @Test
    void requiresARegion() {
        assertThat(region("").errors()).containsExactly(new FieldError("region", "is required"));
    }
}
