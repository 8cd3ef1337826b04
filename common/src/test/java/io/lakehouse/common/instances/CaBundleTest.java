package io.lakehouse.common.instances;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.lakehouse.common.testing.TestCa;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The init containers' commands, run here as the pods would run them (sh, this JDK's keytool, python3)
 * on two CAs generated with openssl, with the two directories of the command's arguments pointed at
 * temporary ones: what the main containers then read must hold the private CAs and the image's roots.
 */
class CaBundleTest {

    @TempDir
    Path tmp;

    @Test
    void theJavaTruststoreHoldsTheDefaultRootsAndEveryCaOfTheBundle() throws Exception {
        List<String> certs = CaBundle.certificates(generatedCa("Acme Root CA") + generatedCa("Acme S3 CA"));
        Path out = run(CaBundle.javaInit("any", context(certs)).get(0), certs);

        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(out.resolve("cacerts"))) {
            store.load(in, CaBundle.TRUSTSTORE_PASSWORD.toCharArray());
        }
        List<String> subjects = new ArrayList<>();
        for (String alias : Collections.list(store.aliases())) {
            assertThat(store.isCertificateEntry(alias)).as(alias).isTrue();
            subjects.add(((X509Certificate) store.getCertificate(alias)).getSubjectX500Principal().getName());
        }
        assertThat(subjects).contains("CN=Acme Root CA", "CN=Acme S3 CA");
        assertThat(store.getCertificateAlias(x509(certs.get(0)))).isEqualTo("lakehouse-ca-1");
        // The JDK's default roots are kept: every one of this JDK's cacerts is in the new store.
        KeyStore defaults = KeyStore.getInstance(Path.of(System.getProperty("java.home"), "lib/security/cacerts")
                .toFile(), "changeit".toCharArray());
        assertThat(defaults.size()).isGreaterThan(50);
        assertThat(store.size()).isEqualTo(defaults.size() + 2);
        Certificate aDefaultRoot = defaults.getCertificate(defaults.aliases().nextElement());
        assertThat(store.getCertificateAlias(aDefaultRoot)).isNotNull();
    }

    @Test
    void thePythonBundleIsThePythonRootsFollowedByEveryCaOfTheBundle() throws Exception {
        List<String> certs = CaBundle.certificates(generatedCa("Acme Root CA") + generatedCa("Acme S3 CA"));
        Path out = run(CaBundle.pythonInit("any", context(certs)).get(0), certs);

        String pem = Files.readString(out.resolve("ca-bundle.pem"));
        assertThat(pem).endsWith(certs.get(0) + certs.get(1));
        List<String> all = CaBundle.certificates(pem);
        assertThat(all.size()).as("the roots Python trusted before, then the two CAs").isGreaterThan(50);
        assertThat(all.subList(all.size() - 2, all.size())).isEqualTo(certs);
    }

    @Test
    void theBundleIsSplitIntoCheckedCertificatesAndAMalformedOneIsRefused() {
        assertThat(CaBundle.certificates("comment\n" + TestCa.PEM + "\n" + TestCa.PEM)).hasSize(2)
                .allSatisfy(c -> assertThat(c).startsWith("-----BEGIN CERTIFICATE-----\n"));
        assertThatThrownBy(() -> CaBundle.certificates("not a certificate"))
                .hasMessageContaining("holds no PEM certificate");
        assertThatThrownBy(() -> CaBundle.certificates("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"))
                .hasMessageContaining("certificate 1 is not a valid X.509 certificate");
    }

    @Test
    void withoutABundleNothingIsAdded() {
        InstanceContext none = context(List.of());
        assertThat(CaBundle.javaInit("img", none)).isEmpty();
        assertThat(CaBundle.pythonInit("img", none)).isEmpty();
        assertThat(CaBundle.volumes("x", none.caCertificates())).isEmpty();
        assertThat(CaBundle.podAnnotations(none)).isEmpty();
        assertThat(CaBundle.mounts(none)).isEmpty();
        assertThat(CaBundle.javaOptions(none)).isEmpty();
        assertThat(CaBundle.pythonEnv(none)).isEmpty();
    }

    /** Runs the container's command with the ConfigMap's files in one directory and its output in another. */
    private Path run(Container init, List<String> certs) throws Exception {
        Path ca = Files.createDirectories(tmp.resolve("ca"));
        Path out = Files.createDirectories(tmp.resolve("out"));
        for (int i = 0; i < certs.size(); i++) {
            Files.writeString(ca.resolve("ca-" + (i + 1) + ".crt"), certs.get(i));
        }
        List<String> command = new ArrayList<>(init.getCommand());
        assertThat(command.subList(command.size() - 2, command.size()))
                .containsExactly(CaBundle.CA_DIR, CaBundle.TRUST_DIR);
        command.set(command.size() - 2, ca.toString());
        command.set(command.size() - 1, out.toString());
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return out;
    }

    private String generatedCa(String cn) throws Exception {
        Path dir = Files.createTempDirectory(tmp, "ca");
        Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-subj", "/CN=" + cn, "-keyout", dir.resolve("key.pem").toString(),
                "-out", dir.resolve("ca.pem").toString()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return Files.readString(dir.resolve("ca.pem"));
    }

    private static X509Certificate x509(String pem) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    }

    private static InstanceContext context(List<String> certs) {
        return new InstanceContext() {
            @Override
            public String managedBy() {
                return "test";
            }

            @Override
            public String domain() {
                return "example.org";
            }

            @Override
            public String ingressClass() {
                return "nginx";
            }

            @Override
            public String tlsSecret() {
                return null;
            }

            @Override
            public String forwardAuthUrl() {
                return "http://authz";
            }

            @Override
            public String signInUrl() {
                return "http://signin";
            }

            @Override
            public String imagePullSecret() {
                return null;
            }

            @Override
            public io.lakehouse.common.kube.NetworkPolicies.IngressPeer ingressPeer() {
                return null;
            }

            @Override
            public List<String> caCertificates() {
                return certs;
            }
        };
    }
}
