package io.lakehouse.engines.tls;

import io.lakehouse.common.crypto.RandomValues;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Issues an internal certificate in-process (BouncyCastle): a CA of its own per instance and a
 * server certificate for the names the instance is reached by. EC P-256 keys: generation takes
 * milliseconds, and every JDK and ingress controller accepts them.
 *
 * <p>The PKCS12 stores are written by the JDK with one PBKDF2 round instead of its default 10,000
 * (for the key, the certificates and the MAC; the JDK reads these properties on every store, and
 * an operator's own {@code -D} wins). Key stretching makes a guessable password costly to brute
 * force; ours are 192 random bits, so the rounds only cost ≈ 70 ms of CPU per certificate.
 */
public final class InternalTls {

    public static final String KEY_ALIAS = "server";
    public static final String CA_ALIAS = "ca";
    /** Certificates are not renewed yet: instances get a long validity. */
    public static final Duration NO_RENEWAL_VALIDITY = Duration.ofDays(3650);
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int PASSWORD_BYTES = 24;
    private static final String PBE_ROUNDS = "1";

    static {
        for (String property : List.of("keystore.pkcs12.keyPbeIterationCount",
                "keystore.pkcs12.certPbeIterationCount", "keystore.pkcs12.macIterationCount")) {
            if (System.getProperty(property) == null) {
                System.setProperty(property, PBE_ROUNDS);
            }
        }
    }

    private InternalTls() {}

    /**
     * @param commonName subject CN of the server certificate
     * @param dnsNames subject alternative names (the Service's names, the public host)
     * @param validity how long both certificates are valid
     */
    public static TlsMaterial issue(String commonName, List<String> dnsNames, Duration validity) {
        try {
            Instant now = Instant.now();
            Date from = Date.from(now.minus(Duration.ofMinutes(5)));
            Date to = Date.from(now.plus(validity));
            KeyPair caKeys = ecKeys();
            X500Name caName = new X500Name("CN=" + commonName + " internal CA,O=lakehouse");
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder ca = new JcaX509v3CertificateBuilder(caName, serial(), from, to, caName,
                    caKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(caKeys.getPublic()));
            X509Certificate caCert = sign(ca, caKeys);

            KeyPair serverKeys = ecKeys();
            GeneralName[] sans = dnsNames.stream().map(n -> new GeneralName(GeneralName.dNSName, n))
                    .toArray(GeneralName[]::new);
            X509v3CertificateBuilder server = new JcaX509v3CertificateBuilder(caCert, serial(), from, to,
                    new X500Name("CN=" + commonName + ",O=lakehouse"), serverKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true,
                            new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement))
                    // clientAuth too: NiFi also presents its certificate as a client.
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                            new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans))
                    .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(caCert))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            ext.createSubjectKeyIdentifier(serverKeys.getPublic()));
            X509Certificate serverCert = sign(server, caKeys);

            String password = RandomValues.token(PASSWORD_BYTES);
            KeyStore keystore = KeyStore.getInstance("PKCS12");
            keystore.load(null, null);
            keystore.setKeyEntry(KEY_ALIAS, serverKeys.getPrivate(), password.toCharArray(),
                    new Certificate[] {serverCert, caCert});
            KeyStore truststore = KeyStore.getInstance("PKCS12");
            truststore.load(null, null);
            truststore.setCertificateEntry(CA_ALIAS, caCert);
            return new TlsMaterial(pem(caCert), bytes(keystore, password), bytes(truststore, password), password);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot issue an internal certificate", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static KeyPair ecKeys() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return generator.generateKeyPair();
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
            throws OperatorCreationException, GeneralSecurityException {
        ContentSigner contentSigner = new JcaContentSignerBuilder(SIGNATURE).build(signer.getPrivate());
        return new JcaX509CertificateConverter().getCertificate(builder.build(contentSigner));
    }

    private static BigInteger serial() {
        return new BigInteger(128, RANDOM);
    }

    private static byte[] bytes(KeyStore store, String password) throws IOException, GeneralSecurityException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        store.store(out, password.toCharArray());
        return out.toByteArray();
    }

    private static String pem(X509Certificate cert) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(cert);
        }
        return out.toString();
    }
}
