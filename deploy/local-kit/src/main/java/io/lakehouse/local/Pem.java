package io.lakehouse.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/** RSA keys as PEM files: PKCS#8 {@code PRIVATE KEY} and X.509 SubjectPublicKeyInfo {@code PUBLIC KEY}. */
final class Pem {

  private static final String PRIVATE = "PRIVATE KEY";
  private static final String PUBLIC = "PUBLIC KEY";

  private Pem() {
  }

  /** Creates the file readable by its owner only; fails rather than overwrite an existing one. */
  static void writePrivate(Path file, PrivateKey key) throws IOException {
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, encode(PRIVATE, key.getEncoded()));
  }

  /** Fails rather than overwrite an existing file. */
  static void writePublic(Path file, PublicKey key) throws IOException {
    Files.createFile(file);
    Files.writeString(file, encode(PUBLIC, key.getEncoded()));
  }

  static PrivateKey readPrivate(Path file) throws IOException, GeneralSecurityException {
    return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(decode(file, PRIVATE)));
  }

  static PublicKey readPublic(Path file) throws IOException, GeneralSecurityException {
    return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(decode(file, PUBLIC)));
  }

  private static String encode(String type, byte[] der) {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }

  private static byte[] decode(Path file, String type) throws IOException {
    String pem = Files.readString(file);
    String begin = "-----BEGIN " + type + "-----";
    String end = "-----END " + type + "-----";
    int from = pem.indexOf(begin);
    int to = pem.indexOf(end);
    if (from < 0 || to < from) {
      throw new IOException(file + " is not a PEM " + type);
    }
    return Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to));
  }
}
