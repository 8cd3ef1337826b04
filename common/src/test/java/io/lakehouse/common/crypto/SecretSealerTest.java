package io.lakehouse.common.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class SecretSealerTest {

    private static final String PLAINTEXT = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

    private static String randomKey(int bytes) {
        byte[] raw = new byte[bytes];
        new SecureRandom().nextBytes(raw);
        return Base64.getEncoder().encodeToString(raw);
    }

    private final SecretSealer sealer = new SecretSealer(randomKey(32));

    @Test
    void opensWhatItSealed() {
        assertThat(sealer.open(sealer.seal(PLAINTEXT))).isEqualTo(PLAINTEXT);
    }

    @Test
    void roundTripsEmptyAndNonAsciiValues() {
        assertThat(sealer.open(sealer.seal(""))).isEmpty();
        assertThat(sealer.open(sealer.seal("clé secrète ✓"))).isEqualTo("clé secrète ✓");
    }

    @Test
    void sealingTwiceGivesDifferentCiphertexts() {
        assertThat(sealer.seal(PLAINTEXT)).isNotEqualTo(sealer.seal(PLAINTEXT));
    }

    @Test
    void theCiphertextNeverContainsThePlaintext() {
        String sealed = sealer.seal(PLAINTEXT);
        assertThat(sealed).doesNotContain(PLAINTEXT);
        String decoded = new String(Base64.getDecoder().decode(sealed), StandardCharsets.ISO_8859_1);
        assertThat(decoded).doesNotContain(PLAINTEXT);
    }

    @Test
    void anotherKeyCannotOpenIt() {
        String sealed = sealer.seal(PLAINTEXT);
        SecretSealer other = new SecretSealer(randomKey(32));
        assertThatThrownBy(() -> other.open(sealed)).isInstanceOf(IllegalStateException.class)
                .hasMessageNotContaining(PLAINTEXT);
    }

    @Test
    void aTamperedCiphertextCannotBeOpened() {
        byte[] raw = Base64.getDecoder().decode(sealer.seal(PLAINTEXT));
        raw[raw.length - 1] ^= 1;
        String tampered = Base64.getEncoder().encodeToString(raw);
        assertThatThrownBy(() -> sealer.open(tampered)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aKeyOfTheWrongLengthIsRefused() {
        assertThatThrownBy(() -> new SecretSealer(randomKey(16))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("32 bytes");
        assertThatThrownBy(() -> new SecretSealer(randomKey(31))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SecretSealer("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aKeyThatIsNotBase64IsRefused() {
        assertThatThrownBy(() -> new SecretSealer("not base64 at all!")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void surroundingWhitespaceOfTheKeyIsIgnored() {
        String key = randomKey(32);
        String sealed = new SecretSealer(key).seal(PLAINTEXT);
        assertThat(new SecretSealer(" " + key + "\n").open(sealed)).isEqualTo(PLAINTEXT);
    }
}
