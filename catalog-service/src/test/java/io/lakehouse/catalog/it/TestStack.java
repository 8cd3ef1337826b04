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
        return System.getProperty("lakehouse.test.pg.url", "postgresql://127.0.0.1:55432/lakehouse");
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
        return Map.of(
                "quarkus.datasource.reactive.url", pgUrl() + "?search_path=catalog",
                "quarkus.datasource.jdbc.url", "jdbc:" + pgUrl() + "?currentSchema=catalog",
                "kafka.bootstrap.servers", kafka(),
                "quarkus.oidc.public-key", TOKENS.publicKeyBase64(),
                "quarkus.oidc.token.issuer", ISSUER,
                "lakehouse.secrets.key", SEALING_KEY,
                "quarkus.flyway.clean-at-start", "true",
                "quarkus.flyway.clean-disabled", "false");
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
