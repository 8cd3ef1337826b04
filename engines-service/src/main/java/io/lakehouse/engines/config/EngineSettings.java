package io.lakehouse.engines.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/** Settings of the engine templates (env-overridable, e.g. {@code LAKEHOUSE_ENGINES_IMAGES_TRINO}). */
@ConfigMapping(prefix = "lakehouse.engines")
public interface EngineSettings {

    Images images();

    /**
     * {@code lakehouse.engines.forward-auth-url}: the gateway's forward-auth check (access-service
     * {@code /api/v1/authz}); MLflow's Ingress asks it whether the caller holds a grant.
     */
    @WithDefault("http://access-service.lakehouse-system.svc:8085/api/v1/authz")
    String forwardAuthUrl();

    /** {@code lakehouse.engines.sign-in-url}: where the gateway sends a caller without a session. */
    @WithDefault("https://login.lakehouse.localtest.me/oauth2/start")
    String signInUrl();

    /**
     * {@code lakehouse.engines.spark-packages}: Maven coordinates ({@code spark.jars.packages}) that every
     * Spark Connect server and Spark job of its profile downloads at each start; unset by default, since
     * the default image holds the Iceberg runtime and AWS bundle. Only for a plain Spark image, e.g.
     * {@code org.apache.iceberg:iceberg-spark-runtime-4.0_2.13:1.10.1,org.apache.iceberg:iceberg-aws-bundle:1.10.1}
     * (needs Maven Central at every start, and the start waits for the download).
     */
    Optional<String> sparkPackages();

    /** Images of the components; a cluster without Docker Hub overrides them. */
    interface Images {
        /** Trino 480: the chart's appVersion; it sends no realm header, so Polaris' default realm is used. */
        @WithDefault("trinodb/trino:480")
        String trino();

        /**
         * {@code lakehouse.engines.images.spark-connect}: the Spark Connect server and the Spark jobs of its
         * profile; deploy/images/spark-iceberg builds it: apache/spark:4.0.1-scala2.13-java21-python3-ubuntu
         * (Python 3.10, like the default notebook image) plus the Iceberg 1.10.1 Spark runtime and AWS bundle.
         */
        @WithDefault("lakehouse/spark-iceberg:4.0.1-iceberg1.10.1")
        String sparkConnect();

        /** The {@code -full} variant: the base image has neither the PostgreSQL driver nor boto3. */
        @WithDefault("ghcr.io/mlflow/mlflow:v3.9.0-full")
        String mlflow();

        @WithDefault("apache/nifi:2.11.0")
        String nifi();

        /**
         * TLS-terminating sidecar (Envoy) in front of a Spark Connect server that requires a token: gRPC
         * clients need ALPN {@code h2}, which plain TLS tunnels do not offer.
         */
        @WithDefault("envoyproxy/envoy:v1.36.2")
        String tlsProxy();
    }
}
