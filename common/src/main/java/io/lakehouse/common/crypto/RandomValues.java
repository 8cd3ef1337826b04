package io.lakehouse.common.crypto;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/** Random values for generated credentials. */
public final class RandomValues {

    private static final SecureRandom RANDOM = new SecureRandom();

    private RandomValues() {}

    /** URL-safe base64 of {@code bytes} random bytes. */
    public static String token(int bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random(bytes));
    }

    /** Lowercase hex of {@code bytes} random bytes. */
    public static String hex(int bytes) {
        return HexFormat.of().formatHex(random(bytes));
    }

    private static byte[] random(int bytes) {
        byte[] raw = new byte[bytes];
        RANDOM.nextBytes(raw);
        return raw;
    }
}
