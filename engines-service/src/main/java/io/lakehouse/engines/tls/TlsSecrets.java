package io.lakehouse.engines.tls;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code <name>-tls} Secret of an instance with an internal certificate. {@code ca.crt} is the
 * key ingress-nginx reads for backend verification ({@code proxy-ssl-secret}).
 */
public final class TlsSecrets {

    public static final String CA = "ca.crt";
    public static final String KEYSTORE = "keystore.p12";
    public static final String TRUSTSTORE = "truststore.p12";
    public static final String PASSWORD = "password";

    private TlsSecrets() {}

    public static Secret of(ObjectMeta meta, TlsMaterial tls) {
        Base64.Encoder b64 = Base64.getEncoder();
        Map<String, String> data = new LinkedHashMap<>();
        data.put(CA, b64.encodeToString(tls.caPem().getBytes(StandardCharsets.US_ASCII)));
        data.put(KEYSTORE, b64.encodeToString(tls.keystore()));
        data.put(TRUSTSTORE, b64.encodeToString(tls.truststore()));
        data.put(PASSWORD, b64.encodeToString(tls.password().getBytes(StandardCharsets.UTF_8)));
        return new SecretBuilder().withMetadata(meta).withType("Opaque").withData(data).build();
    }
}
