package io.lakehouse.local.realrun;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A generated pod turned into a local process: environment, files and the listed rewrites, nothing else. */
class PodMaterializerTest {

  private static final byte[] KEYSTORE = {0x30, (byte) 0x82, 0x0a, 0x00, (byte) 0xff, 0x00, 0x17};

  @TempDir
  Path root;

  private static String b64(byte[] value) {
    return Base64.getEncoder().encodeToString(value);
  }

  private static String b64(String value) {
    return b64(value.getBytes(StandardCharsets.UTF_8));
  }

  private final ObjectSource objects = new ObjectSource() {
    @Override
    public Optional<Map<String, String>> secret(String namespace, String name) {
      return switch (name) {
        case "cat-root-principal" -> Optional.of(Map.of("catalogUri", b64("http://cat.team-a.svc:8181/api/catalog"),
            "clientId", b64("root"), "clientSecret", b64("s3cr3t")));
        case "sql-tls" -> Optional.of(Map.of("keystore.p12", b64(KEYSTORE), "password", b64("changeit")));
        default -> Optional.empty();
      };
    }

    @Override
    public Optional<Map<String, String>> configMap(String namespace, String name) {
      return name.equals("sql-config") ? Optional.of(Map.of(
          "config.properties", "http-server.https.keystore.path=/etc/trino/tls/keystore.p12\n"
              + "discovery.uri=http://sql:8080\nnode.data-dir=/data/trino\n",
          "jvm.config", "-Xmx1400M\n")) : Optional.empty();
    }
  };

  private LocalRewrites rewrites() {
    return new LocalRewrites("team-a")
        .address("cat", 8181, "127.0.0.1:28181")
        .address("sql", 8080, "127.0.0.1:28080")
        .path("/etc/trino", root.resolve("etc"))
        .path("/data/trino", root.resolve("data"));
  }

  private static PodSpec pod() {
    return new PodSpecBuilder()
        .addNewContainer().withName("trino").withImage("trinodb/trino:480")
          .withArgs("--etc-dir=/etc/trino", "--token=$(CATALOG_CLIENT_SECRET)")
          .addNewEnv().withName("CATALOG_URI").withNewValueFrom().withNewSecretKeyRef("catalogUri", "cat-root-principal",
              false).endValueFrom().endEnv()
          .addNewEnv().withName("CATALOG_CLIENT_ID").withNewValueFrom().withNewSecretKeyRef("clientId",
              "cat-root-principal", false).endValueFrom().endEnv()
          .addNewEnv().withName("CATALOG_CLIENT_SECRET").withNewValueFrom().withNewSecretKeyRef("clientSecret",
              "cat-root-principal", false).endValueFrom().endEnv()
          .addNewEnv().withName("CATALOG_CREDENTIAL").withValue("$(CATALOG_CLIENT_ID):$(CATALOG_CLIENT_SECRET)")
          .endEnv()
          .addNewEnv().withName("LITERAL").withValue("$$(CATALOG_CLIENT_ID) $(UNKNOWN)").endEnv()
          .addNewEnv().withName("NAMESPACE").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.namespace")
              .endFieldRef().endValueFrom().endEnv()
          .addNewVolumeMount().withName("config").withMountPath("/etc/trino").endVolumeMount()
          .addNewVolumeMount().withName("tls").withMountPath("/etc/trino/tls").endVolumeMount()
          .addNewVolumeMount().withName("data").withMountPath("/data/trino").endVolumeMount()
        .endContainer()
        .addNewVolume().withName("config").withNewConfigMap().withName("sql-config").endConfigMap().endVolume()
        .addNewVolume().withName("tls").withNewSecret().withSecretName("sql-tls").addNewItem().withKey("keystore.p12")
            .withPath("keystore.p12").endItem().endSecret().endVolume()
        .addNewVolume().withName("data").withNewEmptyDir().endEmptyDir().endVolume()
        .build();
  }

  @Test
  void theEnvironmentIsResolvedAsTheKubeletWouldThenRewritten() {
    LocalPod local = new PodMaterializer(objects, rewrites()).materialize(pod(), "trino", "team-a", "sql-0");
    assertEquals("http://127.0.0.1:28181/api/catalog", local.env().get("CATALOG_URI"));
    assertEquals("root:s3cr3t", local.env().get("CATALOG_CREDENTIAL"));
    assertEquals("$(CATALOG_CLIENT_ID) $(UNKNOWN)", local.env().get("LITERAL"));
    assertEquals("team-a", local.env().get("NAMESPACE"));
    assertEquals(List.of("--etc-dir=" + root.resolve("etc"), "--token=s3cr3t"), local.args());
    assertEquals("trinodb/trino:480", local.image());
  }

  @Test
  void volumesAreWrittenWhereTheirMountPathsGoTextRewrittenSecretsByteForByte() throws Exception {
    new PodMaterializer(objects, rewrites()).materialize(pod(), "trino", "team-a", "sql-0");
    String config = Files.readString(root.resolve("etc/config.properties"));
    assertTrue(config.contains("http-server.https.keystore.path=" + root.resolve("etc/tls/keystore.p12")), config);
    assertTrue(config.contains("discovery.uri=http://127.0.0.1:28080"), config);
    assertTrue(config.contains("node.data-dir=" + root.resolve("data")), config);
    assertEquals("-Xmx1400M\n", Files.readString(root.resolve("etc/jvm.config")));
    assertArrayEquals(KEYSTORE, Files.readAllBytes(root.resolve("etc/tls/keystore.p12")));
    assertFalse(Files.exists(root.resolve("etc/tls/password")), "only the listed items");
    assertTrue(Files.isDirectory(root.resolve("data")));
  }

  @Test
  void aMissingSecretKeyFailsThePodAsTheKubeletDoes() {
    PodSpec pod = new PodSpecBuilder(pod()).editFirstContainer().addNewEnv().withName("X").withNewValueFrom()
        .withNewSecretKeyRef("nope", "cat-root-principal", false).endValueFrom().endEnv().endContainer().build();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> new PodMaterializer(objects, rewrites()).materialize(pod, "trino", "team-a", "sql-0"));
    assertEquals("env X: key 'nope' of 'cat-root-principal' not found", e.getMessage());
  }

  @Test
  void aMountPathWithoutALocalFolderIsRefusedByName() {
    LocalRewrites noData = new LocalRewrites("team-a").path("/etc/trino", root.resolve("etc"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new PodMaterializer(objects, noData).materialize(pod(), "trino", "team-a", "sql-0"));
    assertEquals("container path /data/trino has no local folder: add a path rewrite for it", e.getMessage());
  }

  @Test
  void addressesAreRewrittenInEveryFormButNotInsideOtherNames() {
    LocalRewrites r = rewrites();
    assertEquals("http://127.0.0.1:28181/a 127.0.0.1:28181 127.0.0.1:28181 x 127.0.0.1:28181",
        r.apply("http://cat:8181/a cat.team-a:8181 cat.team-a.svc:8181 x cat.team-a.svc.cluster.local:8181"));
    assertEquals("mycat:8181 cat:81810 cat.other:8181", r.apply("mycat:8181 cat:81810 cat.other:8181"));
    assertEquals("/etc/trinox " + root.resolve("etc") + "/catalog", r.apply("/etc/trinox /etc/trino/catalog"));
  }

  @Test
  void aStandInAtAnotherBasePathAndAHostOfAnotherNamespaceAreRewrittenToo() {
    LocalRewrites r = rewrites().url("http://cat.team-a.svc:8181/api/catalog", "http://127.0.0.1:18181")
        .host("minio.storage.svc", 9000, "127.0.0.1:19090");
    assertEquals("http://127.0.0.1:18181/v1/oauth/tokens",
        r.apply("http://cat.team-a.svc:8181/api/catalog/v1/oauth/tokens"));
    assertEquals("s3.endpoint=http://127.0.0.1:19090\nx=minio.storage.svc:90001",
        r.apply("s3.endpoint=http://minio.storage.svc:9000\nx=minio.storage.svc:90001"));
  }
}
