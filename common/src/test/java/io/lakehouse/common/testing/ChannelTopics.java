package io.lakehouse.common.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/** The topics an incoming channel reads, from the service's configuration files on the classpath. */
final class ChannelTopics {

    private static final List<String> FILES = List.of("application.properties", "META-INF/microprofile-config.properties");

    private ChannelTopics() {}

    static List<String> of(String channel) {
        for (String file : FILES) {
            Properties props = load(file);
            String prefix = "mp.messaging.incoming." + channel + ".";
            String topics = props.getProperty(prefix + "topics", props.getProperty(prefix + "topic"));
            if (topics != null) {
                return Arrays.stream(topics.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList();
            }
        }
        return List.of(channel);
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
