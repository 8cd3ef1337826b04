package io.lakehouse.engines.unit.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.lakehouse.engines.tls.InternalTls;
import io.lakehouse.engines.tls.TlsMaterial;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.pkcs.AuthenticatedSafe;
import org.bouncycastle.asn1.pkcs.ContentInfo;
import org.bouncycastle.asn1.pkcs.EncryptedData;
import org.bouncycastle.asn1.pkcs.EncryptedPrivateKeyInfo;
import org.bouncycastle.asn1.pkcs.PBES2Parameters;
import org.bouncycastle.asn1.pkcs.PBKDF2Params;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.Pfx;
import org.bouncycastle.asn1.pkcs.SafeBag;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The in-process certificate generator: what NiFi, Trino and the gateway rely on. */
class InternalTlsTest {

    private static final List<String> NAMES = List.of("flows", "flows.team-a", "flows.team-a.svc",
            "flows-team-a.lakehouse.localtest.me");
    private static final Duration VALIDITY = Duration.ofDays(30);
    /** dNSName in RFC 5280's GeneralName. */
    private static final int DNS_NAME = 2;

    private static TlsMaterial tls;
    private static Instant issuedAt;

    @BeforeAll
    static void issue() {
        issuedAt = Instant.now();
        tls = InternalTls.issue("flows", NAMES, VALIDITY);
    }

    @Test
    void keystoreHoldsTheServerKeyWithItsChainUnderThePassword() throws Exception {
        KeyStore keystore = load(tls.keystore());

        assertThat(keystore.isKeyEntry(InternalTls.KEY_ALIAS)).isTrue();
        assertThat(keystore.getKey(InternalTls.KEY_ALIAS, tls.password().toCharArray())).isInstanceOf(PrivateKey.class);
        Certificate[] chain = keystore.getCertificateChain(InternalTls.KEY_ALIAS);
        assertThat(chain).hasSize(2);
        assertThat(((X509Certificate) chain[1]).getSubjectX500Principal())
                .isEqualTo(((X509Certificate) chain[0]).getIssuerX500Principal());
    }

    @Test
    void serverCertificateNamesExactlyTheGivenHostsAndIsSignedByTheCa() throws Exception {
        X509Certificate server = server();
        X509Certificate ca = ca();

        assertThat(dnsNames(server)).containsExactlyInAnyOrderElementsOf(NAMES);
        assertThat(server.getSubjectX500Principal().getName()).contains("CN=flows");
        assertThatCode(() -> server.verify(ca.getPublicKey())).doesNotThrowAnyException();
        assertThat(server.getBasicConstraints()).isEqualTo(-1);
        assertThat(server.getExtendedKeyUsage()).contains("1.3.6.1.5.5.7.3.1"); // serverAuth
    }

    @Test
    void caIsASelfSignedCertificateAuthority() throws Exception {
        X509Certificate ca = ca();

        assertThat(ca.getBasicConstraints()).isGreaterThanOrEqualTo(0);
        assertThat(ca.getKeyUsage()[5]).as("keyCertSign").isTrue();
        assertThat(ca.getSubjectX500Principal()).isEqualTo(ca.getIssuerX500Principal());
        assertThatCode(() -> ca.verify(ca.getPublicKey())).doesNotThrowAnyException();
    }

    @Test
    void bothCertificatesAreValidForTheRequestedDuration() throws Exception {
        for (X509Certificate cert : List.of(server(), ca())) {
            assertThat(cert.getNotBefore().toInstant()).isBefore(issuedAt);
            assertThat(cert.getNotAfter().toInstant())
                    .isAfterOrEqualTo(issuedAt.plus(VALIDITY).minusSeconds(1))
                    .isBefore(issuedAt.plus(VALIDITY).plusSeconds(60));
            assertThatCode(() -> cert.checkValidity()).doesNotThrowAnyException();
        }
    }

    @Test
    void truststoreHoldsTheCa() throws Exception {
        KeyStore truststore = load(tls.truststore());

        assertThat(truststore.isCertificateEntry(InternalTls.CA_ALIAS)).isTrue();
        assertThat(truststore.getCertificate(InternalTls.CA_ALIAS)).isEqualTo(ca());
    }

    @Test
    void caPemIsTheSameCa() throws Exception {
        assertThat(tls.caPem()).startsWith("-----BEGIN CERTIFICATE-----");
        Certificate parsed = CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(tls.caPem().getBytes(StandardCharsets.US_ASCII)));

        assertThat(parsed).isEqualTo(ca());
    }

    /** The password is random, so stretching it only costs CPU: ≈ 70 ms per certificate at the JDK's 10,000. */
    @Test
    void storesUseOnePbeRoundForTheirRandomPassword() throws Exception {
        for (byte[] store : List.of(tls.keystore(), tls.truststore())) {
            Pfx pfx = Pfx.getInstance(store);
            assertThat(pfx.getMacData().getIterationCount()).isOne();
            for (ContentInfo info : AuthenticatedSafe.getInstance(
                    ASN1OctetString.getInstance(pfx.getAuthSafe().getContent()).getOctets()).getContentInfo()) {
                assertThat(pbkdf2Rounds(info)).isOne();
            }
        }
        assertThat(tls.password()).hasSizeGreaterThanOrEqualTo(32); // 24 random bytes, base64url
    }

    @Test
    void everyCallIssuesNewKeysAndPassword() throws Exception {
        TlsMaterial other = InternalTls.issue("flows", NAMES, VALIDITY);
        X509Certificate otherServer = (X509Certificate) load(other.keystore(), other.password())
                .getCertificate(InternalTls.KEY_ALIAS);

        assertThat(otherServer.getPublicKey()).isNotEqualTo(server().getPublicKey());
        assertThat(other.caPem()).isNotEqualTo(tls.caPem());
        assertThat(other.password()).isNotEqualTo(tls.password());
    }

    /** PBKDF2 rounds of an encrypted certificate bag or of the shrouded key in a plain one. */
    private static BigInteger pbkdf2Rounds(ContentInfo info) {
        AlgorithmIdentifier pbes2;
        if (info.getContentType().equals(PKCSObjectIdentifiers.encryptedData)) {
            pbes2 = EncryptedData.getInstance(info.getContent()).getEncryptionAlgorithm();
        } else {
            SafeBag bag = SafeBag.getInstance(ASN1Sequence.getInstance(
                    ASN1OctetString.getInstance(info.getContent()).getOctets()).getObjectAt(0));
            assertThat(bag.getBagId()).isEqualTo(PKCSObjectIdentifiers.pkcs8ShroudedKeyBag);
            pbes2 = EncryptedPrivateKeyInfo.getInstance(bag.getBagValue()).getEncryptionAlgorithm();
        }
        assertThat(pbes2.getAlgorithm()).isEqualTo(PKCSObjectIdentifiers.id_PBES2);
        return PBKDF2Params.getInstance(PBES2Parameters.getInstance(pbes2.getParameters()).getKeyDerivationFunc()
                .getParameters()).getIterationCount();
    }

    private static X509Certificate server() throws Exception {
        return (X509Certificate) load(tls.keystore()).getCertificate(InternalTls.KEY_ALIAS);
    }

    private static X509Certificate ca() throws Exception {
        return (X509Certificate) load(tls.keystore()).getCertificateChain(InternalTls.KEY_ALIAS)[1];
    }

    private static KeyStore load(byte[] store) throws Exception {
        return load(store, tls.password());
    }

    private static KeyStore load(byte[] store, String password) throws Exception {
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        keyStore.load(new ByteArrayInputStream(store), password.toCharArray());
        return keyStore;
    }

    private static List<String> dnsNames(X509Certificate cert) throws Exception {
        Collection<List<?>> sans = Objects.requireNonNull(cert.getSubjectAlternativeNames());
        assertThat(sans).allSatisfy(san -> assertThat(san.get(0)).isEqualTo(DNS_NAME));
        return sans.stream().map(san -> (String) san.get(1)).toList();
    }
}
