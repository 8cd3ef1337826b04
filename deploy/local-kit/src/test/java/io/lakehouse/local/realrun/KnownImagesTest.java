package io.lakehouse.local.realrun;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

/** What stands in for each known image, and the rewrites their listen ports need. */
class KnownImagesTest {

  @TempDir
  Path root;

  private final ObjectSource objects = new ObjectSource() {
    @Override
    public Optional<Map<String, String>> secret(String namespace, String name) {
      return name.equals("spark-platform") ? Optional.of(Map.of("token",
          Base64.getEncoder().encodeToString("t0k3n".getBytes(StandardCharsets.UTF_8)))) : Optional.empty();
    }

    @Override
    public Optional<Map<String, String>> configMap(String namespace, String name) {
      return name.equals("spark-conf") ? Optional.of(Map.of("spark-defaults.conf",
          "spark.master=local[2]\nspark.local.dir=/tmp\nspark.connect.grpc.binding.port=15002\n"
              + "spark.jars.ivy=/tmp/ivy2\n")) : Optional.empty();
    }
  };

  /** The shape engines-service generates for a spark-connect instance (its golden file), reduced. */
  private static PodSpec sparkPod() {
    return new PodSpecBuilder()
        .addNewContainer().withName("spark-connect").withImage("apache/spark:4.0.1-scala2.13-java21-python3-ubuntu")
          .withCommand("/bin/sh", "-c", "cat \"/etc/spark/defaults/spark-defaults.conf\" > \"$SPARK_CONF_DIR/x\"\n"
              + "exec \"$SPARK_HOME/bin/spark-submit\" --class C")
          .addNewEnv().withName("SPARK_CONF_DIR").withValue("/etc/spark/conf").endEnv()
          .addNewEnv().withName("SPARK_CONNECT_AUTHENTICATE_TOKEN").withNewValueFrom()
              .withNewSecretKeyRef("token", "spark-platform", false).endValueFrom().endEnv()
          .addNewVolumeMount().withName("defaults").withMountPath("/etc/spark/defaults").endVolumeMount()
          .addNewVolumeMount().withName("conf").withMountPath("/etc/spark/conf").endVolumeMount()
          .addNewVolumeMount().withName("tmp").withMountPath("/tmp").endVolumeMount()
          .addNewVolumeMount().withName("work").withMountPath("/opt/spark/work-dir").endVolumeMount()
        .endContainer()
        .addNewVolume().withName("defaults").withNewConfigMap().withName("spark-conf").endConfigMap().endVolume()
        .addNewVolume().withName("conf").withNewEmptyDir().withMedium("Memory").endEmptyDir().endVolume()
        .addNewVolume().withName("tmp").withNewEmptyDir().endEmptyDir().endVolume()
        .addNewVolume().withName("work").withNewEmptyDir().endEmptyDir().endVolume()
        .build();
  }

  /** Local folders under /tmp, as when LAKEHOUSE_HOME is there: container paths and local ones overlap. */
  private LocalRewrites sparkRewrites(Path base) {
    return new LocalRewrites("team-a")
        .path("/etc/spark/defaults", base.resolve("defaults"))
        .path("/etc/spark/conf", base.resolve("conf"))
        .path("/tmp", base.resolve("tmp"))
        .path("/opt/spark/work-dir", base.resolve("work"));
  }

  @Test
  void sparkConnectRunsThePodsOwnScriptWithTheImagesSparkHomeAndWorkDirAndItsListenPortRewritten() throws Exception {
    LocalRewrites rewrites = sparkRewrites(root);
    KnownImages.listen("apache/spark:4.0.1-scala2.13-java21-python3-ubuntu", Map.of(15002, 18502), rewrites);
    LocalPod pod = new PodMaterializer(objects, rewrites).materialize(sparkPod(), "spark-connect", "team-a", "s-0");
    KnownImages.LocalProcess process = KnownImages.process(pod, Path.of("/opt/dist/spark-4.0.1"), rewrites, Map.of());

    assertEquals(List.of("/bin/sh", "-c", "cat \"" + root.resolve("defaults") + "/spark-defaults.conf\" > "
        + "\"$SPARK_CONF_DIR/x\"\nexec \"$SPARK_HOME/bin/spark-submit\" --class C"), process.command());
    assertEquals(Map.of("SPARK_HOME", "/opt/dist/spark-4.0.1"), process.imageEnv());
    assertEquals(root.resolve("work"), process.workingDir());
    assertEquals(root.resolve("conf").toString(), pod.env().get("SPARK_CONF_DIR"));
    assertEquals("t0k3n", pod.env().get("SPARK_CONNECT_AUTHENTICATE_TOKEN"));
    assertEquals("spark.master=local[2]\nspark.local.dir=" + root.resolve("tmp") + "\n"
        + "spark.connect.grpc.binding.port=18502\nspark.jars.ivy=" + root.resolve("tmp") + "/ivy2\n",
        Files.readString(root.resolve("defaults/spark-defaults.conf")));
  }

  @Test
  void aLocalFolderThatStartsWithAContainerPathIsNotRewrittenAgain() {
    LocalRewrites rewrites = sparkRewrites(Path.of("/tmp/home/spark"));
    assertEquals("cat /tmp/home/spark/defaults/spark-defaults.conf; ls /tmp/home/spark/tmp/ivy2",
        rewrites.apply("cat /etc/spark/defaults/spark-defaults.conf; ls /tmp/ivy2"));
  }

  @Test
  void aPropertyRewriteChangesThatPropertyOnlyInAnyPropertiesSyntax() {
    LocalRewrites rewrites = new LocalRewrites("team-a").property("spark.connect.grpc.binding.port", "18502");
    assertEquals("spark.connect.grpc.binding.port=18502\nx.spark.connect.grpc.binding.port=15002\n"
        + "  spark.connect.grpc.binding.port: 18502\nspark.connect.grpc.binding.portx=1",
        rewrites.apply("spark.connect.grpc.binding.port=15002\nx.spark.connect.grpc.binding.port=15002\n"
            + "  spark.connect.grpc.binding.port: 15002\nspark.connect.grpc.binding.portx=1"));
  }

  @Test
  void trinoRunsTheTarballsLauncherWithItsListenPortsAsSystemProperties() {
    LocalRewrites rewrites = new LocalRewrites("team-a").path("/etc/trino", root.resolve("etc"));
    LocalPod pod = new LocalPod("trinodb/trino:480", List.of(), List.of(), Map.of());
    KnownImages.listen(pod.image(), Map.of(8080, 18480), rewrites);
    assertEquals(List.of("/opt/trino/bin/launcher", "run", "--etc-dir=" + root.resolve("etc"),
        "-Dhttp-server.http.port=18480"),
        KnownImages.process(pod, Path.of("/opt/trino"), rewrites, Map.of(8080, 18480)).command());
  }

  @Test
  void anUnknownImageOrListenPortIsRefusedByName() {
    LocalRewrites rewrites = new LocalRewrites("team-a");
    IllegalArgumentException image = assertThrows(IllegalArgumentException.class,
        () -> KnownImages.listen("envoyproxy/envoy:v1.36.2", Map.of(), rewrites));
    assertEquals("no local process for image envoyproxy/envoy:v1.36.2: the images known here are trinodb/trino,"
        + " apache/spark, lakehouse/spark-iceberg", image.getMessage());
    IllegalArgumentException port = assertThrows(IllegalArgumentException.class,
        () -> KnownImages.listen("apache/spark:4.0.1", Map.of(4040, 14040), rewrites));
    assertTrue(port.getMessage().contains("listens on 15002, not 4040"), port.getMessage());
  }
}
