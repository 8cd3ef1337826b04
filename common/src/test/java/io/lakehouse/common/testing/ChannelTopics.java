package io.lakehouse.common.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/** The topics an incoming channel reads, from the service's configuration files on the classpath. */
final class ChannelTopics {

    private static final List<String> FILES = List.of("application.properties", "META-INF/microprofile-config.properties");

    private ChannelTopics() {}

    /** The test run's topics of the channel ({@link TestTopics}). */
    static List<String> of(String channel) {
        return contractTopics(channel).stream().map(TestTopics::of).toList();
    }

    /** The channel's settings that point it, and its dead-letter topic, at the test run's topics. */
    static Map<String, String> testSettings(String channel) {
        String prefix = "mp.messaging.incoming." + channel + ".";
        Map<String, String> settings = new HashMap<>();
        String key = setting(prefix + "topics").isPresent() ? "topics" : "topic";
        settings.put(prefix + key, String.join(",", of(channel)));
        setting(prefix + "dead-letter-queue.topic")
                .ifPresent(dlq -> settings.put(prefix + "dead-letter-queue.topic", TestTopics.of(dlq.trim())));
        return settings;
    }

    private static List<String> contractTopics(String channel) {
        String prefix = "mp.messaging.incoming." + channel + ".";
        return setting(prefix + "topics").or(() -> setting(prefix + "topic"))
                .map(topics -> Arrays.stream(topics.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList())
                .orElse(List.of(channel));
    }

    /** The first file's value of a key, the service's own file before the common one. */
    private static Optional<String> setting(String key) {
        return FILES.stream().map(ChannelTopics::load).map(props -> props.getProperty(key))
                .filter(v -> v != null).findFirst();
    }

    private static Properties load(String resource) {
        Properties props = new Properties();
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
            if (in != null) {
                props.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return props;
    }
}
