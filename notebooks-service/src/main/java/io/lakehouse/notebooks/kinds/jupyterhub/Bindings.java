package io.lakehouse.notebooks.kinds.jupyterhub;

/**
 * The referenced instances as the service last learned them from their {@code instance.*} events:
 * what user servers need to reach them. A reference whose instance is unknown (deleted, not yet
 * announced) has no binding, and its variables are left out until it comes back. Never a secret
 * value: Secrets by name only.
 *
 * @param catalog the {@code iceberg-catalog}, or null
 * @param trino the {@code trino}, or null
 * @param sparkConnect the {@code spark-connect}, or null
 * @param mlflow the {@code mlflow}, or null
 */
public record Bindings(Catalog catalog, Trino trino, SparkConnect sparkConnect, Mlflow mlflow) {

    public static final Bindings NONE = new Bindings(null, null, null, null);

    /**
     * @param name the instance
     * @param principalSecret its {@code <name>-root-principal} Secret: keys {@code catalogUri},
     *     {@code catalogName}, {@code clientId}, {@code clientSecret}
     */
    public record Catalog(String name, String principalSecret) {}

    /** @param host the coordinator's {@code host:port} for clients of the namespace */
    public record Trino(String name, String host) {}

    /**
     * @param remote the connection string without a token ({@code sc://host:port[/;use_ssl=true]})
     * @param tokenSecret the Secret with the connection token (key {@code token}), or null when none is required
     * @param caSecret the Secret with the CA of its TLS proxy (key {@code ca.crt}), or null without TLS
     */
    public record SparkConnect(String name, String remote, String tokenSecret, String caSecret) {

        public boolean tokenRequired() {
            return tokenSecret != null;
        }
    }

    /** @param trackingUri the tracking server's address in the namespace */
    public record Mlflow(String name, String trackingUri) {}
}
