package io.lakehouse.engines.unit.sparkconnect;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Secret;
import io.lakehouse.common.instances.GeneratedSecret;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.tls.TlsSecrets;
import io.lakehouse.engines.unit.EngineFixtures;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Secrets generated once when a token is required: the token, and the TLS proxy's certificate. */
class SparkConnectSecretsTest {

    private static final Instance INSTANCE = SparkConnectFixtures.production();
    private static final EngineContext CTX = EngineFixtures.productionContext();

    @Test
    void theTokenAndTheCertificateAreGeneratedOnce() {
        assertThat(generated()).extracting(GeneratedSecret::name).containsExactly("spark-platform", "spark-tls");
    }

    /** A hub's pods read both (KnownInstance): they stay in the other services' caches of Secrets. */
    @Test
    void neitherIsMarkedPrivate() {
        assertThat(List.of(build("spark-platform"), build("spark-tls")))
                .allSatisfy(s -> assertThat(s.getMetadata().getLabels()).doesNotContainKey(Labels.PRIVATE));
    }

    @Test
    void theTokenIsLongRandomAndOwnedByTheInstance() {
        Secret first = build("spark-platform");
        Secret second = build("spark-platform");

        String token = decode(first.getData().get("token"));
        assertThat(token).hasSize(43).matches("[A-Za-z0-9_-]+");
        assertThat(decode(second.getData().get("token"))).isNotEqualTo(token);
        assertThat(first.getMetadata().getNamespace()).isEqualTo(EngineFixtures.NAMESPACE);
        assertThat(first.getMetadata().getOwnerReferences()).containsExactly(EngineFixtures.owner());
    }

    @Test
    void theCertificateNamesTheServiceAndItsCaIsThereForClients() throws Exception {
        Secret tls = build("spark-tls");

        assertThat(tls.getData()).containsOnlyKeys(TlsSecrets.CA, TlsSecrets.KEYSTORE, TlsSecrets.TRUSTSTORE,
                TlsSecrets.PASSWORD);
        assertThat(decode(tls.getData().get(TlsSecrets.CA))).startsWith("-----BEGIN CERTIFICATE-----");
        char[] password = decode(tls.getData().get(TlsSecrets.PASSWORD)).toCharArray();
        KeyStore keystore = KeyStore.getInstance("PKCS12");
        keystore.load(new ByteArrayInputStream(Base64.getDecoder().decode(tls.getData().get(TlsSecrets.KEYSTORE))),
                password);
        X509Certificate server = (X509Certificate) keystore.getCertificate("server");
        assertThat(server.getSubjectAlternativeNames()).extracting(san -> (String) san.get(1)).containsExactly(
                "spark", "spark.team-a", "spark.team-a.svc", "spark.team-a.svc.cluster.local");
    }

    private static List<GeneratedSecret> generated() {
        return SparkConnectFixtures.KIND.generatedSecrets(INSTANCE, CTX, EngineFixtures.owner());
    }

    private static Secret build(String name) {
        return generated().stream().filter(g -> g.name().equals(name)).findFirst().orElseThrow().build().get();
    }

    private static String decode(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }
}
