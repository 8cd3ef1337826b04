package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/**
 * Secrets and Jobs are compacted as they arrive, on the client's event loop during the first lists (P8): copied
 * field by field, they keep exactly what the cache's readers use and nothing else.
 */
class CompactObjectTest {

    @Test
    void aSecretKeepsItsTypeMetadataAndTheDigestOfItsValuesNotTheValues() {
        Secret full = new SecretBuilder().withNewMetadata().withName("s").withNamespace("ns").withResourceVersion("7")
                .addToLabels(Labels.INSTANCE, "sales").addToAnnotations("a", "b")
                .addToAnnotations("kubectl.kubernetes.io/last-applied-configuration", "{\"data\":{\"tls.key\":\"c2VjcmV0\"}}")
                .endMetadata()
                .withType("kubernetes.io/tls").addToData("tls.key", "c2VjcmV0").withImmutable(true).build();

        Secret compact = (Secret) CompactObject.of(full, "");

        assertThat(Serialization.asJson(compact)).doesNotContain("c2VjcmV0").doesNotContain("immutable");
        assertThat(compact.getData()).isNullOrEmpty();
        assertThat(compact.getType()).isEqualTo("kubernetes.io/tls");
        assertThat(compact.getApiVersion()).isEqualTo("v1");
        assertThat(compact.getKind()).isEqualTo("Secret");
        assertThat(compact.getMetadata().getLabels()).containsEntry(Labels.INSTANCE, "sales");
        assertThat(compact.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(compact.getMetadata().getAnnotations()).containsEntry("a", "b").containsKey(CompactObject.MARK);
        assertThat(CompactObject.dataDigest(compact)).isEqualTo(CompactObject.dataDigest(full));
        assertThat(CompactObject.isCompact(compact)).isTrue();
    }

    @Test
    void aCompactSecretStillTellsWhichKeysItsDataHasSoACreateCanCheckABucketFromTheCache() {
        Secret full = new SecretBuilder().withNewMetadata().withName("bucket").withNamespace("ns").endMetadata()
                .addToData(BucketSecrets.ACCESS_KEY_ID, "QUtJQQ==").addToData(BucketSecrets.SECRET_ACCESS_KEY, "c2VjcmV0")
                .build();
        Secret oneKey = new SecretBuilder().withNewMetadata().withName("half").withNamespace("ns").endMetadata()
                .addToData(BucketSecrets.ACCESS_KEY_ID, "QUtJQQ==").build();

        Secret compact = (Secret) CompactObject.of(full, "");

        assertThat(Serialization.asJson(compact)).doesNotContain("c2VjcmV0").doesNotContain("QUtJQQ==");
        assertThat(CompactObject.dataKeys(compact)).containsExactly(BucketSecrets.ACCESS_KEY_ID,
                BucketSecrets.SECRET_ACCESS_KEY);
        assertThat(BucketSecrets.hasKeys(compact)).isTrue();
        assertThat(BucketSecrets.hasKeys((Secret) CompactObject.of(oneKey, ""))).isFalse();
    }

    @Test
    void aJobKeepsItsStatusAndAnnotationsNotItsPodTemplate() {
        Job full = new JobBuilder().withNewMetadata().withName("j").withNamespace("ns")
                .addToAnnotations(Labels.CHECKSUM, "abc").endMetadata()
                .withNewSpec().withBackoffLimit(2).withNewTemplate().withNewSpec().addNewContainer().withName("init")
                .withImage("image:1").endContainer().endSpec().endTemplate().endSpec()
                .withNewStatus().withSucceeded(1).addNewCondition().withType("Complete").withStatus("True").endCondition()
                .endStatus().build();
        String listed = Serialization.asJson(full);

        Job compact = (Job) CompactObject.of(full, "abc");

        // The informer hands the listed Job to its listeners after storing the copy: it must be as listed.
        assertThat(Serialization.asJson(full)).isEqualTo(listed);
        assertThat(compact.getStatus()).isNotSameAs(full.getStatus());
        assertThat(compact.getStatus().getConditions()).singleElement().extracting("type").isEqualTo("Complete");

        assertThat(compact.getSpec()).isNull();
        assertThat(Serialization.asJson(compact)).doesNotContain("image:1");
        assertThat(compact.getStatus().getSucceeded()).isEqualTo(1);
        assertThat(compact.getApiVersion()).isEqualTo("batch/v1");
        assertThat(compact.getKind()).isEqualTo("Job");
        assertThat(CompactObject.verifies(compact, "abc")).isTrue();
        assertThat(compact.getMetadata().getAnnotations()).containsEntry(Labels.CHECKSUM, "abc");
    }

    @Test
    void theObjectsOfOneOwnerShareOneListOfOwnerReferences() {
        Secret first = new SecretBuilder().withNewMetadata().withName("a").withNamespace("ns").addNewOwnerReference()
                .withApiVersion("v1").withKind("ConfigMap").withName("lake-instance").withUid(new String("u-1"))
                .endOwnerReference().endMetadata().build();
        Secret second = new SecretBuilder(first).editMetadata().withName("b").editFirstOwnerReference()
                .withUid(new String("u-1")).endOwnerReference().endMetadata().build();
        Secret other = new SecretBuilder(first).editMetadata().withName("c").editFirstOwnerReference().withUid("u-2")
                .endOwnerReference().endMetadata().build();

        var shared = CompactObject.of(first, "").getMetadata().getOwnerReferences();

        assertThat(CompactObject.of(second, "").getMetadata().getOwnerReferences()).isSameAs(shared);
        assertThat(CompactObject.of(other, "").getMetadata().getOwnerReferences()).isNotSameAs(shared)
                .singleElement().extracting("uid").isEqualTo("u-2");
    }
}
