package io.lakehouse.common.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which live objects the apply primitive may write as an instance's own. */
class OwnershipTest {

    private static final UUID UID = UUID.fromString("11111111-2222-4333-8444-555555555555");
    private static final UUID OTHER_UID = UUID.fromString("99999999-2222-4333-8444-555555555555");

    private static ConfigMap object(Map<String, String> labels) {
        return new ConfigMapBuilder().withNewMetadata().withName("cat").withNamespace("team-a").withLabels(labels)
                .endMetadata().build();
    }

    private static ConfigMap desired() {
        return object(Labels.of("polaris", "iceberg-catalog", "cat", UID, "server", "catalog-service"));
    }

    @Test
    void anObjectOfTheSameInstanceIsOwned() {
        assertThat(Ownership.sameInstance(desired(), desired())).isTrue();
    }

    @Test
    void anObjectOfAnotherInstanceWithTheSameNameIsForeign() {
        ConfigMap previousIncarnation = object(Labels.of("polaris", "iceberg-catalog", "cat", OTHER_UID, "server",
                "catalog-service"));
        assertThat(Ownership.sameInstance(desired(), previousIncarnation)).isFalse();
    }

    @Test
    void anObjectOfAnotherServiceOrKindIsForeign() {
        ConfigMap mlflow = object(Labels.of("mlflow", "mlflow", "cat", "server", "engines-service"));
        assertThat(Ownership.sameInstance(desired(), mlflow)).isFalse();
        ConfigMap sameServiceOtherKind = object(Labels.of("polaris", "trino", "cat", "server", "catalog-service"));
        assertThat(Ownership.sameInstance(desired(), sameServiceOtherKind)).isFalse();
    }

    @Test
    void anObjectWithoutLabelsIsForeignAndTheMessageSaysSo() {
        ConfigMap users = object(Map.of("team", "finance"));
        assertThatThrownBy(() -> Ownership.require(desired(), users))
                .isInstanceOf(ForeignObjectException.class)
                .hasMessage("ConfigMap 'cat' already exists in namespace 'team-a' and it is not managed by the"
                        + " lakehouse services: it is left untouched; delete or rename it, or delete this instance");
    }

    @Test
    void anObjectWrittenBeforeUidLabelsByTheSameServiceForTheSameInstanceIsOwned() {
        ConfigMap old = object(Labels.of("polaris", "iceberg-catalog", "cat", "server", "catalog-service"));
        assertThat(Ownership.sameInstance(desired(), old)).isTrue();
    }

    @Test
    void anObjectThatIsNotAnInstancesIsNotChecked() {
        ConfigMap unmarked = object(Labels.of("polaris", "iceberg-catalog", "cat", "server", "catalog-service"));
        assertThat(Ownership.sameInstance(unmarked, object(Map.of()))).isTrue();
    }
}
