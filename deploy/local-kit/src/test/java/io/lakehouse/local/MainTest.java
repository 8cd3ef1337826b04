package io.lakehouse.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands the local scripts run, each printing one line. */
class MainTest {

  @Test
  void keysPrintsThePublicKeyAndTokenPrintsAJwtSignedWithIt(@TempDir Path directory) throws Exception {
    String keys = directory.resolve("keys").toString();

    String publicKey = run("keys", keys);
    String token = run("token", "--keys", keys, "--issuer", "http://issuer", "--ttl-seconds", "60",
        "alice", "team-a", "/team-b");

    assertEquals(LocalTokens.load(Path.of(keys)).publicKeyBase64(), publicKey);
    JwtClaims claims = new JwtConsumerBuilder()
        .setExpectedIssuer("http://issuer")
        .setExpectedAudience(LocalTokens.API_AUDIENCE)
        .setVerificationKey(LocalTokens.load(Path.of(keys)).publicKey())
        .build()
        .processToClaims(token);
    assertEquals("alice", claims.getSubject());
    // `lakehouse token alice team-a` means the top-level group /team-a.
    assertEquals(List.of("/team-a", "/team-b"), claims.getStringListClaimValue("groups"));
    assertEquals(60, claims.getExpirationTime().getValue() - claims.getIssuedAt().getValue());
  }

  private static String run(String... args) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      Main.main(args);
    } finally {
      System.setOut(original);
    }
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(1, printed.lines().count(), printed);
    return printed.strip();
  }
}
