package io.lakehouse.catalog.it;

import io.lakehouse.local.LocalTokens;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.Map;

/**
 * Points the service under test at the real PostgreSQL and Kafka that {@code deploy/local/lakehouse
 * test} starts, with a token issuer of its own and a clean schema.
 */
public class TestStack implements QuarkusTestResourceLifecycleManager {

    public static final String ISSUER = "https://lakehouse.local/issuer";
    public static final String SEALING_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
    public static final LocalTokens TOKENS = LocalTokens.ephemeral();

    public static String pgUrl() {
        return System.getProperty("lakehouse.test.pg.url", "postgresql://127.0.0.1:55432/lakehouse_test");
    }

    public static String kafka() {
        return System.getProperty("lakehouse.test.kafka", "127.0.0.1:59092");
    }

    @Override
    public Map<String, String> start() {
        URI pg = URI.create(pgUrl());
        requireReachable("PostgreSQL", pg.getHost(), pg.getPort());
        String[] kafka = kafka().split(":");
        requireReachable("Kafka", kafka[0], Integer.parseInt(kafka[1]));
        // A consumer group of its own: never take partitions from a running local stack.
        String group = "catalog-service-test-" + java.util.UUID.randomUUID();
        return Map.ofEntries(
                Map.entry("mp.messaging.incoming.lakehouse-access.group.id", group),
                Map.entry("mp.messaging.incoming.lakehouse-instances.group.id", group),
                Map.entry("quarkus.datasource.reactive.url", pgUrl() + "?search_path=catalog"),
                Map.entry("quarkus.datasource.jdbc.url", "jdbc:" + pgUrl() + "?currentSchema=catalog"),
                Map.entry("kafka.bootstrap.servers", kafka()),
                Map.entry("quarkus.oidc.public-key", TOKENS.publicKeyBase64()),
                Map.entry("quarkus.oidc.token.issuer", ISSUER),
                Map.entry("lakehouse.secrets.key", SEALING_KEY),
                Map.entry("quarkus.flyway.clean-at-start", "true"),
                Map.entry("quarkus.flyway.clean-disabled", "false"));
    }

    @Override
    public void stop() {
        // The servers belong to the test command, which stops them.
    }

    private static void requireReachable(String what, String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 2000);
        } catch (IOException e) {
            throw new IllegalStateException(what + " is not reachable on " + host + ":" + port
                    + ": run the tests with 'deploy/local/lakehouse test', which starts it");
        }
    }
}
