package io.lakehouse.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

/**
 * Issues RS256 bearer tokens for the OIDC-protected services where no identity provider runs: the services verify
 * them with {@code quarkus.oidc.public-key} set to {@link #publicKeyBase64()}. Claims: iss, aud (the platform's
 * API audience {@value #API_AUDIENCE}, what the services require), sub and upn and preferred_username (the
 * username), groups as full paths like Keycloak's groups mapper gives them ({@code data-team} is taken as
 * {@code /data-team}), iat, exp, jti; header kid (the key's RFC 7638 thumbprint).
 */
public final class LocalTokens {

  /** The audience of the platform's APIs ({@code quarkus.oidc.token.audience} of every service). */
  public static final String API_AUDIENCE = "lakehouse-api";

  static final String PRIVATE_PEM = "private.pem";
  static final String PUBLIC_PEM = "public.pem";

  private final KeyPair keys;
  private final String keyId;

  private LocalTokens(KeyPair keys) {
    this.keys = keys;
    this.keyId = new RsaJsonWebKey((RSAPublicKey) keys.getPublic()).calculateBase64urlEncodedThumbprint("SHA-256");
  }

  /** A fresh in-memory key pair, for tests. */
  public static LocalTokens ephemeral() {
    return new LocalTokens(generate());
  }

  /** The key pair in {@code directory}; generated into it first when neither file exists. Never overwrites. */
  public static LocalTokens loadOrCreate(Path directory) {
    Path privateFile = directory.resolve(PRIVATE_PEM);
    Path publicFile = directory.resolve(PUBLIC_PEM);
    if (Files.notExists(privateFile) && Files.notExists(publicFile)) {
      KeyPair keys = generate();
      try {
        Files.createDirectories(directory);
        Pem.writePrivate(privateFile, keys.getPrivate());
        Pem.writePublic(publicFile, keys.getPublic());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write keys to " + directory, e);
      }
    }
    return load(directory);
  }

  /** The key pair in {@code directory} ({@value #PRIVATE_PEM}, {@value #PUBLIC_PEM}), which must match. */
  public static LocalTokens load(Path directory) {
    try {
      PrivateKey privateKey = Pem.readPrivate(directory.resolve(PRIVATE_PEM));
      PublicKey publicKey = Pem.readPublic(directory.resolve(PUBLIC_PEM));
      if (!((RSAPrivateCrtKey) privateKey).getModulus().equals(((RSAPublicKey) publicKey).getModulus())) {
        throw new IllegalStateException(PRIVATE_PEM + " and " + PUBLIC_PEM + " in " + directory + " do not match");
      }
      return new LocalTokens(new KeyPair(publicKey, privateKey));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read keys from " + directory, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("invalid keys in " + directory, e);
    }
  }

  /** The public key as {@code quarkus.oidc.public-key} takes it: base64 of the X.509 SubjectPublicKeyInfo. */
  public String publicKeyBase64() {
    return Base64.getEncoder().encodeToString(keys.getPublic().getEncoded());
  }

  public PublicKey publicKey() {
    return keys.getPublic();
  }

  public String keyId() {
    return keyId;
  }

  /** A token for the platform's APIs, valid from now for {@code ttl}. */
  public String sign(String issuer, String username, List<String> groups, Duration ttl) {
    return sign(issuer, API_AUDIENCE, username, groups, ttl);
  }

  /** A token meant for {@code audience} (another client of the realm, say), valid from now for {@code ttl}. */
  public String sign(String issuer, String audience, String username, List<String> groups, Duration ttl) {
    Instant now = Instant.now();
    return sign(keys.getPrivate(), issuer, audience, username, groups, now, now.plus(ttl));
  }

  /** A group as Keycloak's full-path mapper names it: {@code /platform-admins} for {@code platform-admins}. */
  public static String fullPath(String group) {
    return group.startsWith("/") ? group : "/" + group;
  }

  /** A token that expired an hour ago, well past any clock skew a verifier allows. */
  public String expired(String issuer, String username, List<String> groups) {
    Instant now = Instant.now();
    return sign(keys.getPrivate(), issuer, API_AUDIENCE, username, groups, now.minus(Duration.ofHours(2)),
        now.minus(Duration.ofHours(1)));
  }

  /** A token like {@link #sign} (same kid) but signed by another key: its signature must not verify. */
  public String signedWithOtherKey(String issuer, String username, List<String> groups, Duration ttl) {
    Instant now = Instant.now();
    return sign(generate().getPrivate(), issuer, API_AUDIENCE, username, groups, now, now.plus(ttl));
  }

  private String sign(PrivateKey key, String issuer, String audience, String username, List<String> groups,
      Instant issuedAt, Instant expiresAt) {
    JwtClaims claims = new JwtClaims();
    claims.setIssuer(issuer);
    claims.setAudience(audience);
    claims.setSubject(username);
    claims.setClaim("upn", username);
    claims.setClaim("preferred_username", username);
    claims.setStringListClaim("groups", groups.stream().map(LocalTokens::fullPath).toList());
    claims.setIssuedAt(NumericDate.fromSeconds(issuedAt.getEpochSecond()));
    claims.setExpirationTime(NumericDate.fromSeconds(expiresAt.getEpochSecond()));
    claims.setGeneratedJwtId();

    JsonWebSignature jws = new JsonWebSignature();
    jws.setPayload(claims.toJson());
    jws.setKey(key);
    jws.setKeyIdHeaderValue(keyId);
    jws.setHeader("typ", "JWT");
    jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
    try {
      return jws.getCompactSerialization();
    } catch (JoseException e) {
      throw new IllegalStateException("cannot sign a token", e);
    }
  }

  private static KeyPair generate() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("RSA is not available", e);
    }
  }
}
