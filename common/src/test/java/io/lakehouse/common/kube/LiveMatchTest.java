package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveMatchTest {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private static Deployment desired() {
        return new DeploymentBuilder()
                .withNewMetadata().withName("srv").withNamespace("ns")
                    .withLabels(Map.of("app.kubernetes.io/name", "polaris"))
                    .withAnnotations(Map.of(Labels.CHECKSUM, "abc"))
                    .withOwnerReferences(OwnerReferences.controlledBy("v1", "ConfigMap", "root", "uid-1"))
                .endMetadata()
                .withNewSpec()
                    .withReplicas(1)
                    .withNewSelector().withMatchLabels(Map.of("app.kubernetes.io/name", "polaris")).endSelector()
                    .withNewTemplate()
                        .withNewMetadata().withLabels(Map.of("app.kubernetes.io/name", "polaris")).endMetadata()
                        .withNewSpec()
                            .addNewContainer().withName("polaris").withImage("apache/polaris:1.7.0")
                                .addNewPort().withName("http").withContainerPort(8181).endPort()
                                .addNewEnv().withName("A").withValue("1").endEnv()
                                .addNewEnv().withName("B").withValue("2").endEnv()
                            .endContainer()
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    /** What an API server returns for {@link #desired()}: the same plus defaults and bookkeeping. */
    private static Deployment live() {
        Deployment live = SERIALIZATION.clone(desired());
        live.getMetadata().setUid("0b8f6a1e-0000-4000-8000-000000000001");
        live.getMetadata().setResourceVersion("4711");
        live.getMetadata().setGeneration(3L);
        live.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z");
        live.getMetadata().getAnnotations().put("deployment.kubernetes.io/revision", "2");
        live.getSpec().setRevisionHistoryLimit(10);
        live.getSpec().setProgressDeadlineSeconds(600);
        live.getSpec().getTemplate().getSpec().setRestartPolicy("Always");
        live.getSpec().getTemplate().getSpec().setDnsPolicy("ClusterFirst");
        live.getSpec().getTemplate().getSpec().getContainers().get(0).setImagePullPolicy("IfNotPresent");
        live.getSpec().getTemplate().getSpec().getContainers().get(0).setTerminationMessagePath("/dev/termination-log");
        live.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().get(0).setProtocol("TCP");
        live.setStatus(new DeploymentStatusBuilder().withReplicas(1).withAvailableReplicas(1).build());
        return live;
    }

    @Test
    void anIdenticalObjectIsCovered() {
        assertThat(LiveMatch.covers(desired(), SERIALIZATION.clone(desired()))).isTrue();
    }

    @Test
    void fieldsTheServerAddsAreIgnored() {
        assertThat(LiveMatch.covers(desired(), live())).isTrue();
    }

    @Test
    void aChangedFieldIsDrift() {
        Deployment live = live();
        live.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("apache/polaris:1.6.0");
        assertThat(LiveMatch.covers(desired(), live)).isFalse();
    }

    @Test
    void aChangedNumberIsDrift() {
        Deployment live = live();
        live.getSpec().setReplicas(0);
        assertThat(LiveMatch.covers(desired(), live)).isFalse();
    }

    @Test
    void aFieldRemovedFromTheLiveObjectIsDrift() {
        Deployment live = live();
        live.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().clear();
        assertThat(LiveMatch.covers(desired(), live)).isFalse();
    }

    @Test
    void anExtraListEntryIsDrift() {
        Deployment live = live();
        live.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()
                .add(new EnvVarBuilder().withName("INJECTED").withValue("x").build());
        assertThat(LiveMatch.covers(desired(), live)).isFalse();
    }

    @Test
    void aMissingListEntryIsDrift() {
        Deployment live = live();
        live.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().remove(1);
        assertThat(LiveMatch.covers(desired(), live)).isFalse();
    }

    @Test
    void listsAreComparedInOrder() {
        Deployment live = live();
        var env = live.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
        env.add(env.remove(0));
        assertThat(LiveMatch.covers(desired(), live)).isFalse();
    }

    @Test
    void extraLabelsAndAnnotationsOnTheLiveObjectAreIgnored() {
        Deployment live = live();
        live.getMetadata().getLabels().put("team", "data");
        live.getMetadata().getAnnotations().put("kubectl.kubernetes.io/last-applied-configuration", "{}");
        assertThat(LiveMatch.covers(desired(), live)).isTrue();
    }

    @Test
    void aMissingDesiredLabelIsDrift() {
        Deployment live = live();
        live.getMetadata().getLabels().clear();
        assertThat(LiveMatch.covers(desired(), live)).isFalse();
    }

    @Test
    void aChangedAnnotationIsDrift() {
        Deployment live = live();
        live.getMetadata().getAnnotations().put(Labels.CHECKSUM, "def");
        assertThat(LiveMatch.covers(desired(), live)).isFalse();
    }

    @Test
    void anotherOwnerIsDrift() {
        Deployment live = live();
        live.getMetadata().getOwnerReferences().get(0).setUid("uid-2");
        assertThat(LiveMatch.covers(desired(), live)).isFalse();
    }

    @Test
    void theLiveStatusIsNeverCompared() {
        Deployment desired = desired();
        desired.setStatus(new DeploymentStatusBuilder().withReplicas(5).build());
        assertThat(LiveMatch.covers(desired, live())).isTrue();
    }

    @Test
    void changedConfigMapDataIsDriftAndExtraDataIsNot() {
        ConfigMap desired = new ConfigMapBuilder().withNewMetadata().withName("c").withNamespace("ns").endMetadata()
                .withData(Map.of("a", "1")).build();
        HasMetadata changed = new ConfigMapBuilder(desired).withData(Map.of("a", "2")).build();
        HasMetadata extra = new ConfigMapBuilder(desired).withData(Map.of("a", "1", "b", "2")).build();
        assertThat(LiveMatch.covers(desired, changed)).isFalse();
        assertThat(LiveMatch.covers(desired, extra)).isTrue();
    }

    /**
     * Fails today: a real API server returns resource quantities in canonical form ("1.5" CPU is read
     * back as "1500m", "1024Mi" as "1Gi"), and LiveMatch compares them as text, so a Deployment whose
     * limits were typed in another spelling is seen as drifted on every pass and updated again. The
     * fabric8 mock keeps the text as sent, so only a unit test shows it.
     */
    @Test
    void aQuantityTheServerRewritesInCanonicalFormIsNotDrift() {
        Deployment desired = desired();
        var container = desired.getSpec().getTemplate().getSpec().getContainers().get(0);
        container.setResources(new ResourceRequirementsBuilder()
                .withLimits(Map.of("cpu", new Quantity("1.5"),
                        "memory", new Quantity("1024Mi")))
                .build());
        Deployment live = SERIALIZATION.clone(desired);
        live.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().setLimits(
                Map.of("cpu", new Quantity("1500m"),
                        "memory", new Quantity("1Gi")));
        assertThat(LiveMatch.covers(desired, live)).isTrue();
    }

    @Test
    void aQuantityWithAnotherValueIsDrift() {
        Deployment desired = desired();
        desired.getSpec().getTemplate().getSpec().getContainers().get(0).setResources(
                new ResourceRequirementsBuilder()
                        .withLimits(Map.of("memory", new Quantity("1Gi"))).build());
        Deployment live = SERIALIZATION.clone(desired);
        live.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().setLimits(
                Map.of("memory", new Quantity("2Gi")));
        assertThat(LiveMatch.covers(desired, live)).isFalse();
    }
}
