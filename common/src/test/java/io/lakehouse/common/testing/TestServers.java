package io.lakehouse.common.testing;

import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgPool;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Where the tests find the real PostgreSQL and Kafka that {@code deploy/local/lakehouse test}
 * starts (system properties set by the parent POM's surefire configuration).
 */
public final class TestServers {

    private TestServers() {}

    public static String pgUrl() {
        return System.getProperty("lakehouse.test.pg.url", "postgresql://127.0.0.1:55432/lakehouse_test");
    }

    /** JDBC to the test database as a service's role, in its schema (role, password and schema share the name). */
    public static DataSource schema(String name) {
        URI url = URI.create(pgUrl());
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setServerNames(new String[] {url.getHost()});
        ds.setPortNumbers(new int[] {url.getPort()});
        ds.setDatabaseName(url.getPath().substring(1));
        ds.setUser(name);
        ds.setPassword(name);
        ds.setCurrentSchema(name);
        return ds;
    }

    /** {@link #schema} as a reactive pool (the services' other client), on a Vert.x of its own. */
    public static Pool reactivePool(String name) {
        URI url = URI.create(pgUrl());
        PgConnectOptions options = new PgConnectOptions().setHost(url.getHost()).setPort(url.getPort())
                .setDatabase(url.getPath().substring(1)).setUser(name).setPassword(name);
        return PgPool.pool(Vertx.vertx(), options, new PoolOptions().setMaxSize(4));
    }

    public static String kafka() {
        return System.getProperty("lakehouse.test.kafka", "127.0.0.1:59092");
    }

    /** Fails fast, saying how to start them, when either server is down. */
    public static void requireReachable() {
        URI pg = URI.create(pgUrl());
        requireReachable("PostgreSQL", pg.getHost(), pg.getPort());
        String[] kafka = kafka().split(":");
        requireReachable("Kafka", kafka[0], Integer.parseInt(kafka[1]));
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
