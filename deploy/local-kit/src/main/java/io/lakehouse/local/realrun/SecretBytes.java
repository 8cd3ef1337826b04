package io.lakehouse.local.realrun;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Secret data as the API server holds it: base64. */
final class SecretBytes {

  private SecretBytes() {
  }

  static byte[] bytes(String base64) {
    return Base64.getDecoder().decode(base64);
  }

  static String text(String base64) {
    return new String(bytes(base64), StandardCharsets.UTF_8);
  }
}
