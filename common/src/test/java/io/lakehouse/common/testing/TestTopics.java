package io.lakehouse.common.testing;

/**
 * The topics of the test runs: the contract's names behind a prefix, which the services under test publish to
 * ({@code lakehouse.service.outbox.topic-prefix}) and read from ({@link ServiceTestStack}). A local stack on the same
 * broker never consumes the tests' events (a stack started after a test run read them all from its first start),
 * nor the tests the stack's.
 */
public final class TestTopics {

    /** {@code deploy/local/lakehouse test} creates the topics behind it, with the stack's partitions. */
    public static final String PREFIX = "test.";

    private TestTopics() {}

    /** The test run's topic for a contract topic, e.g. {@code test.lakehouse.instances}. */
    public static String of(String topic) {
        return PREFIX + topic;
    }
}
