package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.lakehouse.common.instances.PodSecrets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The informer cache keeps a compact copy of each object from the moment it arrives (P6), and the whole JSON of a
 * version only until a pass compared it: config files, pod templates and Secret values leave memory, while what a
 * user sees stays the same: nothing is read or written while nothing changed, and an object changed by hand is put
 * back.
 */
class InformerCacheCompactTest {

    private static final String NS = "compact";
    private static final String VALUE = "canary-6f1d0c2e-secret-value";
    private static final String CONFIG = "x".repeat(4096);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private ProxiedKube kube;
    private KubernetesClient direct;
    private InformerCache cache;
    private Applier applier;

    @BeforeEach
    void start() throws Exception {
        kube = new ProxiedKube(Files.createTempDirectory("no-crds"), NS, c -> c);
        direct = kube.direct;
        List<ResourceKind> kinds = List.of(ResourceKind.CONFIG_MAP, ResourceKind.SECRET, ResourceKind.DEPLOYMENT);
        cache = new InformerCache(kube.throughProxy, "test-service");
        cache.start(kinds, 10);
        applier = new Applier(kube.throughProxy, cache, kinds);
    }

    @AfterEach
    void stop() throws Exception {
        cache.close();
        kube.close();
    }

    @Test
    void aConfigMapIsCachedWithoutItsDataAndComparedWithoutARequestAndAHandEditIsStillPutBack() throws Exception {
        assertThat(applier.apply(configMap(CONFIG), ApplyMode.ENFORCE).result()).isEqualTo(ApplyResult.CREATED);
        await().atMost(WAIT).until(() -> cache.get(ResourceKind.CONFIG_MAP, NS, "config").isPresent());
        ConfigMap compact = (ConfigMap) cached(ResourceKind.CONFIG_MAP, "config");
        assertThat(compact.getData()).as("the config file is not held as an object").isNullOrEmpty();
        assertThat(compact.getMetadata().getLabels()).containsEntry(Labels.INSTANCE, "sales");
        assertThat(compact.getMetadata().getAnnotations()).containsKey(Labels.CHECKSUM);

        long requests = requests();
        assertThat(applier.apply(configMap(CONFIG), ApplyMode.ENFORCE).result()).isEqualTo(ApplyResult.UNCHANGED);
        assertThat(applier.apply(configMap(CONFIG), ApplyMode.ENFORCE).result()).isEqualTo(ApplyResult.UNCHANGED);
        assertThat(requests()).as("compared with the version's kept JSON, then by its checksum: no request")
                .isEqualTo(requests);
        assertThat(cache.wholeTree(cached(ResourceKind.CONFIG_MAP, "config"))).as("compared: its JSON left memory")
                .isNull();

        // changed by hand: the new version arrives whole and is compared whole
        ConfigMap edited = direct.configMaps().inNamespace(NS).withName("config").get();
        edited.getData().put("app.conf", "edited by hand");
        String editedVersion = direct.configMaps().inNamespace(NS).resource(edited).update().getMetadata()
                .getResourceVersion();
        await().atMost(WAIT).until(() -> editedVersion.equals(
                cached(ResourceKind.CONFIG_MAP, "config").getMetadata().getResourceVersion()));
        requests = requests();
        assertThat(applier.apply(configMap(CONFIG), ApplyMode.ENFORCE).result()).isEqualTo(ApplyResult.UPDATED);
        assertThat(requests() - requests).as("the update alone: the edit was seen in the kept JSON").isEqualTo(1);
        assertThat(direct.configMaps().inNamespace(NS).withName("config").get().getData())
                .containsEntry("app.conf", CONFIG);
    }

    @Test
    void aNewDesiredStateOfAVersionSeenToCarryAnotherIsWrittenWithoutReadingItAgain() throws Exception {
        applier.apply(configMap(CONFIG), ApplyMode.ENFORCE);
        await().atMost(WAIT).until(() -> cache.get(ResourceKind.CONFIG_MAP, NS, "config").isPresent());
        applier.apply(configMap(CONFIG), ApplyMode.ENFORCE);
        assertThat(CompactObject.isCompact(cached(ResourceKind.CONFIG_MAP, "config"))).isTrue();

        long requests = requests();
        assertThat(applier.apply(configMap("changed"), ApplyMode.ENFORCE).result()).isEqualTo(ApplyResult.UPDATED);
        assertThat(requests() - requests).as("the update alone: no GET of a version known to carry the old state")
                .isEqualTo(1);
        assertThat(direct.configMaps().inNamespace(NS).withName("config").get().getData())
                .containsEntry("app.conf", "changed");
    }

    @Test
    void secretValuesNeverStayInTheCacheAndTheirChangesAreStillSeen() throws Exception {
        assertThat(applier.apply(secret(VALUE), ApplyMode.ENFORCE).result()).isEqualTo(ApplyResult.CREATED);
        await().atMost(WAIT).until(() -> cache.get(ResourceKind.SECRET, NS, "s3").isPresent());
        Secret cached = (Secret) cached(ResourceKind.SECRET, "s3");
        assertThat(cached.getData()).isNullOrEmpty();
        assertThat(Serialization.asJson(cached)).doesNotContain(SecretData.encode(Map.of("k", VALUE)).get("k"));
        assertThat(cached.getType()).isEqualTo("Opaque");
        assertThat(PodSecrets.digest(List.of("s3"), n -> Optional.of(cached)))
                .as("pods roll on the same digest whether the Secret is read whole or from the cache")
                .isEqualTo(PodSecrets.digest(List.of("s3"),
                        n -> Optional.of(direct.secrets().inNamespace(NS).withName("s3").get())));

        long requests = requests();
        assertThat(applier.apply(secret(VALUE), ApplyMode.ENFORCE).result()).isEqualTo(ApplyResult.UNCHANGED);
        assertThat(requests()).isEqualTo(requests);

        assertThat(applier.apply(secret("rotated"), ApplyMode.ENFORCE).result()).isEqualTo(ApplyResult.UPDATED);
        await().atMost(WAIT).until(() -> applier.apply(secret("rotated"), ApplyMode.ENFORCE).result()
                == ApplyResult.UNCHANGED);

        Secret added = direct.secrets().inNamespace(NS).withName("s3").get();
        added.getData().put("extra", "YWRkZWQ=");
        direct.secrets().inNamespace(NS).resource(added).update();
        await().atMost(WAIT).until(() -> applier.apply(secret("rotated"), ApplyMode.ENFORCE).result()
                == ApplyResult.UPDATED);
        assertThat(direct.secrets().inNamespace(NS).withName("s3").get().getData()).doesNotContainKey("extra");
    }

    @Test
    void aCompactDeploymentStillShowsItsReplicasAndStatus() throws Exception {
        applier.apply(deployment(), ApplyMode.ENFORCE);
        Deployment live = direct.apps().deployments().inNamespace(NS).withName("server").get();
        live.setStatus(new io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder().withAvailableReplicas(2)
                .build());
        direct.apps().deployments().inNamespace(NS).resource(live).updateStatus();
        await().atMost(WAIT).until(() -> cache.get(ResourceKind.DEPLOYMENT, NS, "server")
                .map(d -> ((Deployment) d).getStatus() != null).orElse(false));

        assertThat(applier.apply(deployment(), ApplyMode.ENFORCE).result()).isEqualTo(ApplyResult.UNCHANGED);
        Deployment compact = (Deployment) cached(ResourceKind.DEPLOYMENT, "server");
        assertThat(CompactObject.isCompact(compact)).isTrue();
        assertThat(compact.getSpec().getTemplate()).as("the pod template left memory").isNull();
        assertThat(compact.getSpec().getReplicas()).isEqualTo(2);
        assertThat(compact.getStatus().getAvailableReplicas()).isEqualTo(2);
        assertThat(compact.getMetadata().getUid()).isEqualTo(live.getMetadata().getUid());
    }

    private HasMetadata cached(ResourceKind kind, String name) {
        return cache.get(kind, NS, name).orElseThrow();
    }

    private static ConfigMap configMap(String config) {
        return new ConfigMapBuilder().withNewMetadata().withName("config").withNamespace(NS).withLabels(labels())
                .endMetadata().withData(Map.of("app.conf", config)).build();
    }

    private static Secret secret(String value) {
        return new SecretBuilder().withNewMetadata().withName("s3").withNamespace(NS).withLabels(labels())
                .endMetadata().withType("Opaque").withData(SecretData.encode(Map.of("k", value))).build();
    }

    private static Deployment deployment() {
        return new DeploymentBuilder().withNewMetadata().withName("server").withNamespace(NS).withLabels(labels())
                .endMetadata().withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", "server")
                .endSelector().withNewTemplate().withNewMetadata().addToLabels("app", "server").endMetadata()
                .withNewSpec().addNewContainer().withName("server").withImage("server:1").withArgs(CONFIG)
                .endContainer().endSpec().endTemplate().endSpec().build();
    }

    private static Map<String, String> labels() {
        return Map.of(Labels.MANAGED_BY, "test-service", Labels.INSTANCE, "sales", Labels.INSTANCE_KIND, "demo");
    }

    /** Every request the cache's client made through the proxy so far. */
    private long requests() throws Exception {
        Matcher m = Pattern.compile("\"method\\.[A-Z]+\":(\\d+)").matcher(kube.counters());
        long sum = 0;
        while (m.find()) {
            sum += Long.parseLong(m.group(1));
        }
        return sum;
    }
}
