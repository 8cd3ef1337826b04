package io.lakehouse.engines.tls;

/**
 * An internal server certificate and its CA: a PKCS12 keystore (key + chain, alias {@code server}),
 * a PKCS12 truststore (the CA, alias {@code ca}), both under the same password, and the CA in PEM
 * for whoever verifies the server (the gateway's backend TLS).
 */
public record TlsMaterial(String caPem, byte[] keystore, byte[] truststore, String password) {}
