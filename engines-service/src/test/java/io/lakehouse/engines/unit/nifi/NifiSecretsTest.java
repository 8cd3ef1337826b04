package io.lakehouse.engines.unit.nifi;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.lakehouse.common.instances.GeneratedSecret;
import io.lakehouse.common.instances.Instance;
import io.lakehouse.common.kube.Labels;
import io.lakehouse.common.testing.GoldenYaml;
import io.lakehouse.engines.reconcile.EngineContext;
import io.lakehouse.engines.tls.InternalTls;
import io.lakehouse.engines.tls.TlsSecrets;
import io.lakehouse.engines.unit.EngineFixtures;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The Secrets generated once per instance, and that no other object carries a secret value. */
class NifiSecretsTest {

    private static final Instance INST = NifiFixtures.defaults();
    private static final EngineContext CTX = EngineFixtures.context();

    @Test
    void theTlsAndNifiSecretsAreGenerated() {
        Map<String, Secret> secrets = generate();

        assertThat(secrets).containsOnlyKeys("flows-tls", "flows-nifi");
        assertThat(secrets.get("flows-tls").getData())
                .containsOnlyKeys(TlsSecrets.CA, TlsSecrets.KEYSTORE, TlsSecrets.TRUSTSTORE, TlsSecrets.PASSWORD);
        assertThat(secrets.get("flows-nifi").getData()).containsOnlyKeys("sensitive-props-key");
        assertThat(secrets.values()).allSatisfy(s -> {
            assertThat(s.getMetadata().getNamespace()).isEqualTo(EngineFixtures.NAMESPACE);
            assertThat(s.getMetadata().getOwnerReferences()).containsExactly(EngineFixtures.owner());
            assertThat(s.getMetadata().getLabels()).containsEntry("app.kubernetes.io/instance", "flows")
                    .as("NiFi's alone: out of the other services' caches").containsEntry(Labels.PRIVATE, "true");
            assertThat(s.getType()).isEqualTo("Opaque");
        });
    }

    @Test
    void theKeystoreOpensWithItsPasswordAndNamesEveryAddressOfNifi() throws Exception {
        Secret tls = generate().get("flows-tls");
        String password = decode(tls, TlsSecrets.PASSWORD);
        KeyStore keystore = KeyStore.getInstance("PKCS12");
        keystore.load(new ByteArrayInputStream(bytes(tls, TlsSecrets.KEYSTORE)), password.toCharArray());

        X509Certificate server = (X509Certificate) keystore.getCertificate(InternalTls.KEY_ALIAS);

        assertThat(server.getSubjectAlternativeNames()).extracting(san -> (String) san.get(1))
                .containsExactlyInAnyOrder("flows", "flows.team-a", "flows.team-a.svc",
                        "flows.team-a.svc.cluster.local", "flows-0.flows.team-a.svc.cluster.local",
                        "flows-team-a.lakehouse.localtest.me");
        assertThat(server.getNotAfter().toInstant()).as("not renewed yet: valid for years")
                .isAfter(Instant.now().plus(Duration.ofDays(3600)));
        KeyStore truststore = KeyStore.getInstance("PKCS12");
        truststore.load(new ByteArrayInputStream(bytes(tls, TlsSecrets.TRUSTSTORE)), password.toCharArray());
        assertThat(truststore.getCertificate(InternalTls.CA_ALIAS).getPublicKey())
                .isEqualTo(keystore.getCertificateChain(InternalTls.KEY_ALIAS)[1].getPublicKey());
        assertThat(decode(tls, TlsSecrets.CA)).startsWith("-----BEGIN CERTIFICATE-----");
    }

    @Test
    void theSensitivePropertiesKeyIsLongAndSafeForStartShsSed() {
        String key = decode(generate().get("flows-nifi"), "sensitive-props-key");

        assertThat(key).hasSizeGreaterThanOrEqualTo(12).matches("[A-Za-z0-9_-]+");
        assertThat(decode(generate().get("flows-nifi"), "sensitive-props-key")).isNotEqualTo(key);
    }

    @Test
    void noSecretValueAppearsInTheOtherObjects() {
        Map<String, Secret> secrets = generate();
        List<String> values = List.of(decode(secrets.get("flows-tls"), TlsSecrets.PASSWORD),
                decode(secrets.get("flows-nifi"), "sensitive-props-key"));
        List<HasMetadata> objects = NifiFixtures.KIND.objects(INST, CTX, EngineFixtures.owner());

        assertThat(objects).noneMatch(o -> o instanceof Secret);
        String yaml = GoldenYaml.trees(objects).stream().map(GoldenYaml::yaml).collect(Collectors.joining());
        assertThat(values).allSatisfy(value -> assertThat(yaml).doesNotContain(value));
    }

    private static Map<String, Secret> generate() {
        Map<String, Secret> secrets = new LinkedHashMap<>();
        for (GeneratedSecret generated : NifiFixtures.KIND.generatedSecrets(INST, CTX, EngineFixtures.owner())) {
            Secret secret = generated.build().get();
            // The name the reconciler looks up is the name of the Secret it creates.
            assertThat(secret.getMetadata().getName()).isEqualTo(generated.name());
            secrets.put(generated.name(), secret);
        }
        return secrets;
    }

    private static byte[] bytes(Secret secret, String key) {
        return Base64.getDecoder().decode(secret.getData().get(key));
    }

    private static String decode(Secret secret, String key) {
        return new String(bytes(secret, key), StandardCharsets.UTF_8);
    }
}
