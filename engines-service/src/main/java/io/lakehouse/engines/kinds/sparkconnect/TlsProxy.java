package io.lakehouse.engines.kinds.sparkconnect;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.kube.EnvVars;
import io.lakehouse.common.kube.PodSecurity;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.tls.TlsSecrets;
import java.util.Map;

/**
 * The TLS sidecar of a server that requires a token. Clients send a token only over TLS and Spark
 * Connect has no TLS of its own, so Envoy terminates TLS on {@value SparkConnectNames#TLS_PORT} and
 * forwards the bytes to the server, which listens on 127.0.0.1 only. Envoy rather than a plain TLS
 * tunnel (ghostunnel, stunnel): gRPC clients (grpcio, grpc-java) refuse a TLS connection whose
 * server selects no ALPN protocol, and Envoy announces {@code h2}. No client certificate: the token
 * authenticates.
 */
final class TlsProxy {

    static final String VOLUME = "tls";
    static final String DIR = "/etc/envoy/tls";
    static final String PASSWORD_ENV = "KEYSTORE_PASSWORD";
    /** A TCP proxy with two worker threads: little memory, some CPU for TLS on result batches. */
    static final Map<String, Quantity> CAPACITY = Map.of("memory", new Quantity("128Mi"), "cpu", new Quantity("250m"));

    /**
     * Envoy's whole configuration, the same for every instance: TLS with ALPN h2 and the keystore of
     * {@code <name>-tls} (its password from the environment), then plain TCP to the server; no idle
     * timeout, a query may stream nothing for long; no admin listener.
     */
    static final String CONFIG = """
            static_resources:
              listeners:
              - name: spark_connect_tls
                address: {socket_address: {address: 0.0.0.0, port_value: %d}}
                filter_chains:
                - filters:
                  - name: envoy.filters.network.tcp_proxy
                    typed_config:
                      "@type": type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy
                      stat_prefix: spark_connect
                      cluster: spark_connect
                      idle_timeout: 0s
                  transport_socket:
                    name: envoy.transport_sockets.tls
                    typed_config:
                      "@type": type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext
                      common_tls_context:
                        alpn_protocols: [h2]
                        tls_certificates:
                        - pkcs12: {filename: %s/%s}
                          password: {environment_variable: %s}
              clusters:
              - name: spark_connect
                type: STATIC
                connect_timeout: 5s
                load_assignment:
                  cluster_name: spark_connect
                  endpoints:
                  - lb_endpoints:
                    - endpoint: {address: {socket_address: {address: 127.0.0.1, port_value: %d}}}
            """.formatted(SparkConnectNames.TLS_PORT, DIR, TlsSecrets.KEYSTORE, PASSWORD_ENV,
            SparkConnectNames.GRPC_PORT);

    private TlsProxy() {}

    static Container container(Instance inst, EngineContext ctx) {
        return new ContainerBuilder()
                .withName("tls-proxy")
                .withImage(ctx.tlsProxyImage())
                .withCommand("envoy")
                // No shared memory for hot restarts; two workers, not one per node CPU.
                .withArgs("--config-yaml", CONFIG, "--disable-hot-restart", "--concurrency", "2", "--log-level",
                        "warn")
                .withEnv(EnvVars.fromSecret(PASSWORD_ENV, SparkConnectNames.tls(inst.name()), TlsSecrets.PASSWORD))
                .addNewPort().withName("grpc-tls").withContainerPort(SparkConnectNames.TLS_PORT).endPort()
                .withNewReadinessProbe()
                    .withNewTcpSocket().withNewPort("grpc-tls").endTcpSocket()
                    .withPeriodSeconds(10)
                .endReadinessProbe()
                .withNewResources().withRequests(CAPACITY).withLimits(CAPACITY).endResources()
                .withSecurityContext(PodSecurity.restrictedContainer())
                .addNewVolumeMount().withName(VOLUME).withMountPath(DIR).withReadOnly(true).endVolumeMount()
                .build();
    }

    /** Only the keystore of {@code <name>-tls}: the proxy needs nothing else from it. */
    static Volume volume(Instance inst) {
        return new VolumeBuilder().withName(VOLUME)
                .withNewSecret().withSecretName(SparkConnectNames.tls(inst.name()))
                    .addNewItem().withKey(TlsSecrets.KEYSTORE).withPath(TlsSecrets.KEYSTORE).endItem()
                .endSecret()
                .build();
    }
}
