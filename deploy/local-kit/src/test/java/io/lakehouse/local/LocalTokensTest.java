package io.lakehouse.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.jwt.util.KeyUtils;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalTokensTest {

  private static final String ISSUER = "http://127.0.0.1:8180/realms/lakehouse";

  private final LocalTokens tokens = LocalTokens.ephemeral();

  @Test
  void signedTokenVerifiesWithThePublicKeyAndCarriesTheIdentity() throws Exception {
    String token = tokens.sign(ISSUER, "alice", List.of("team-a", "/platform-admins"), Duration.ofHours(1));

    JwtClaims claims = consumer().processToClaims(token);
    assertEquals(ISSUER, claims.getIssuer());
    assertEquals("alice", claims.getSubject());
    assertEquals("alice", claims.getStringClaimValue("preferred_username"));
    assertEquals("alice", claims.getStringClaimValue("upn"));
    // Full group paths, as Keycloak's groups mapper gives them; the API audience.
    assertEquals(List.of("/team-a", "/platform-admins"), claims.getStringListClaimValue("groups"));
    assertEquals(List.of(LocalTokens.API_AUDIENCE), claims.getAudience());
    assertEquals(3600, claims.getExpirationTime().getValue() - claims.getIssuedAt().getValue());
    assertNotNull(claims.getJwtId());
    JsonWebSignature header = (JsonWebSignature) JsonWebSignature.fromCompactSerialization(token);
    assertEquals("RS256", header.getAlgorithmHeaderValue());
    assertEquals(tokens.keyId(), header.getKeyIdHeaderValue());
  }

  @Test
  void expiredTokenHasItsExpiryInThePastAndIsRefused() throws Exception {
    String token = tokens.expired(ISSUER, "alice", List.of());

    JwtClaims claims = JwtClaims.parse(
        new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8));
    assertTrue(claims.getExpirationTime().isBefore(NumericDate.now()));
    InvalidJwtException refused = assertThrows(InvalidJwtException.class, () -> consumer().process(token));
    assertTrue(refused.hasExpired());
  }

  @Test
  void tokenSignedWithAnotherKeyIsRefused() {
    String token = tokens.signedWithOtherKey(ISSUER, "mallory", List.of("platform-admins"), Duration.ofHours(1));

    InvalidJwtException refused = assertThrows(InvalidJwtException.class, () -> consumer().process(token));
    assertTrue(refused.hasErrorCode(ErrorCodes.SIGNATURE_INVALID));
  }

  @Test
  void publicKeyIsInTheFormQuarkusOidcDecodes() throws Exception {
    // quarkus.oidc.public-key goes through smallrye-jwt's KeyUtils.decodePublicKey.
    assertEquals(tokens.publicKey(), KeyUtils.decodePublicKey(tokens.publicKeyBase64()));
  }

  @Test
  void keysAreWrittenOnceAndReadBack(@TempDir Path directory) throws Exception {
    Path keys = directory.resolve("keys");
    LocalTokens created = LocalTokens.loadOrCreate(keys);
    String privatePem = Files.readString(keys.resolve("private.pem"));

    LocalTokens again = LocalTokens.loadOrCreate(keys);

    assertEquals(created.publicKeyBase64(), again.publicKeyBase64());
    assertEquals(privatePem, Files.readString(keys.resolve("private.pem")));
    assertTrue(privatePem.startsWith("-----BEGIN PRIVATE KEY-----\n"));
    assertTrue(Files.readString(keys.resolve("public.pem")).startsWith("-----BEGIN PUBLIC KEY-----\n"));
    assertEquals("rw-------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(keys.resolve("private.pem"))));
    String token = again.sign(ISSUER, "bob", List.of(), Duration.ofMinutes(5));
    assertEquals("bob", consumer(created).processToClaims(token).getSubject());
  }

  @Test
  void aLoneKeyFileIsNeitherCompletedNorOverwritten(@TempDir Path directory) throws Exception {
    Files.writeString(directory.resolve("public.pem"), "kept");

    assertThrows(RuntimeException.class, () -> LocalTokens.loadOrCreate(directory));
    assertEquals("kept", Files.readString(directory.resolve("public.pem")));
  }

  @Test
  void eachEphemeralInstanceHasItsOwnKey() {
    assertNotEquals(tokens.publicKeyBase64(), LocalTokens.ephemeral().publicKeyBase64());
  }

  private JwtConsumer consumer() {
    return consumer(tokens);
  }

  private static JwtConsumer consumer(LocalTokens verifier) {
    return new JwtConsumerBuilder()
        .setExpectedIssuer(ISSUER)
        .setExpectedAudience(LocalTokens.API_AUDIENCE)
        .setRequireExpirationTime()
        .setRequireIssuedAt()
        .setRequireJwtId()
        .setVerificationKey(verifier.publicKey())
        .build();
  }
}
