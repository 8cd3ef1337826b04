package io.lakehouse.engines.kinds.sparkconnect;

/** Names and ports of a Spark Connect instance's objects. */
final class SparkConnectNames {

    static final String APP = "spark-connect";
    static final String SERVER = "server";
    static final String CONF_SUFFIX = "-conf";
    static final String PLATFORM_SUFFIX = "-platform";
    static final String TLS_SUFFIX = "-tls";
    /** Spark Connect's gRPC port (spark.connect.grpc.binding.port's default). */
    static final int GRPC_PORT = 15002;
    /** The TLS proxy's port, in front of the server when a token is required. */
    static final int TLS_PORT = 15443;

    private SparkConnectNames() {}

    /** The ConfigMap with spark-defaults.conf. */
    static String conf(String name) {
        return name + CONF_SUFFIX;
    }

    /** The Secret with the connection token. */
    static String platform(String name) {
        return name + PLATFORM_SUFFIX;
    }

    /** The Secret with the TLS proxy's certificate and its CA. */
    static String tls(String name) {
        return name + TLS_SUFFIX;
    }
}
